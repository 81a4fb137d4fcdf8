"""The pygls wiring of `jobcheck lsp`.

Diagnostics are computed from the editor's text: on open and on save at once, on change after a
pause in typing (debounced, 300 ms by default; `initializationOptions.debounce` in seconds). One
analysis covers a document's whole project, so it republishes every open document of that
project: an edit in a helper module updates the job that calls it. Analyses run one at a time on
a worker thread, so the server keeps answering while it works; results for a document that has
changed since are not published (a newer analysis is on its way).

A document that does not parse gives a JC000 diagnostic like any other finding; the server keeps
serving. Configuration is read as the CLI reads it, on every analysis; a change to a
`pyproject.toml` (watched files, or saving it in the editor) re-analyses the open documents.

Code actions: "Suppress JCnnn on this line" for every finding, "Insert the five-questions section"
for JC501, and `source.fixAll.jobcheck` for all of a document's JC501 fixes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import to_fs_path

from ... import __version__
from ...config import ConfigError
from . import convert
from .framing import FramedStdin
from .workspace import Result, Workspace

log = logging.getLogger(__name__)

DEBOUNCE = 0.3
FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.jobcheck"
_NO_ACTIONS = ("JC000", "JC001")


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, answering a request whose parameters do not fit its method (a code
    action with no range) with an error response instead of only logging it: the client would
    wait for an answer forever."""

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "method" in data and isinstance(data.get("id"), (int, str)):
                self._send_response(data["id"], None, exc.to_response_error())
            raise


class BadPath(Exception):
    """A document's URI names no path jobcheck can analyse (a NUL byte in it, say)."""


class JobcheckServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("jobcheck", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=_Protocol)
        self.index = Workspace()
        self.debounce = DEBOUNCE
        self.analysis_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jobcheck-analysis")
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.results: dict[Path, Result] = {}  # the latest analysis that covered each open document
        self.shown_errors: set[str] = set()

    # ---- documents -----------------------------------------------------------------------------

    def document(self, uri: str):
        """The open document `uri` names, or None. pygls keeps documents under the decoded URI
        (`my%20project` as `my project`): looked up with the client's URI as it is, a document
        whose path has a space or a non-ASCII letter would never be found."""
        return self.workspace.text_documents.get(unquote(uri))

    def python_docs(self) -> dict[str, object]:
        """The open Python documents, by the URI the client gave them."""
        return {doc.uri: doc for doc in self.workspace.text_documents.values() if _is_python(doc)}

    def snapshot(self) -> tuple[dict[Path, tuple[str, int | None]], dict[Path, str]]:
        texts, uris = {}, {}
        for doc in self.python_docs().values():
            path = _known_path(doc.uri)  # a document that has no usable path is reported on its own
            if path is not None:
                texts[path] = (doc.source, doc.version)
                uris[path] = doc.uri
        return texts, uris

    def schedule(self, uri: str, delay: float) -> None:
        """Analyse `uri` after `delay` seconds, replacing an analysis scheduled before."""
        old = self.timers.pop(uri, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.timers[uri] = loop.call_later(delay, lambda: asyncio.ensure_future(self.analyse(uri)))

    async def analyse(self, uri: str) -> Result | None:
        """Analyse the project of `uri` and publish for its open documents. A failure is the
        failing document's alone: it is reported on that document and in the log, and every
        other document goes on being analysed."""
        self.timers.pop(uri, None)
        try:
            path = _path(uri)
            if path is None:
                return None
            texts, uris = self.snapshot()
            if path not in texts:
                return None  # closed meanwhile
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self.analysis_pool, self.index.analyse, path, texts)
            self.shown_errors.clear()
            self.publish(result, uris)
        except ConfigError as exc:
            self.config_error(uri, str(exc))
            return None
        except BadPath as exc:
            self.unanalysable(uri, str(exc))
            return None
        except Exception as exc:  # never let one analysis take the server down
            self.window_log_message(types.LogMessageParams(types.MessageType.Error,
                                                           f"jobcheck: analysis of {uri} failed:\n{traceback.format_exc()}"))
            self.unanalysable(uri, f"{type(exc).__name__}: {exc} (the traceback is in the server's log)")
            return None
        return result

    async def analyse_all(self) -> None:
        """Re-analyse every open document; one analysis per project covers all its documents."""
        done: set[Path] = set()
        for uri in list(self.python_docs()):
            path = _known_path(uri)
            if path is not None and path in done:
                continue
            result = await self.analyse(uri)  # reports a document that has no usable path
            done.add(path)
            if result is not None:
                done.update(result.texts)

    def publish(self, result: Result, uris: dict[Path, str]) -> None:
        project = result.report.project
        units = self.workspace.position_codec.client_num_units
        lines = convert.Lines(result.texts, units)
        for path, version in result.versions.items():
            uri = uris.get(path)
            doc = self.document(uri) if uri else None
            if doc is None or doc.version != version:
                continue  # closed, or changed since: the analysis of the new text will publish
            self.results[path] = result
            try:
                diagnostics = [convert.diagnostic(f, lines, project) for f in result.findings_for(path)]
            except Exception as exc:  # this document's, not the others'
                log.exception("jobcheck: cannot convert the findings of %s", uri)
                self.unanalysable(uri, f"{type(exc).__name__}: {exc}")
                continue
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    def config_error(self, uri: str, message: str) -> None:
        if message not in self.shown_errors:
            self.shown_errors.add(message)
            self.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"jobcheck: configuration error: {message}"))
        self.publish_error(uri, f"configuration error: {message}")

    def unanalysable(self, uri: str, why: str) -> None:
        log.error("jobcheck: cannot analyse %s: %s", uri, why)
        self.publish_error(uri, f"jobcheck cannot analyse this document: {why}", code="JC002")

    def publish_error(self, uri: str, message: str, code: str | None = None) -> None:
        """One error diagnostic at the top of the document, in place of its findings."""
        doc = self.document(uri)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=doc.version if doc else None,
            diagnostics=[types.Diagnostic(
                range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                message=message, severity=types.DiagnosticSeverity.Error, source=convert.SOURCE, code=code,
            )],
        ))

    # ---- code actions --------------------------------------------------------------------------

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        doc = self.document(uri)
        path = _known_path(uri)
        if doc is None or path is None:
            return []
        wanted = params.context.only
        actions: list[types.CodeAction] = []
        if _wants(wanted, types.CodeActionKind.QuickFix):
            for diag in params.context.diagnostics:
                if diag.source != convert.SOURCE or not isinstance(diag.code, str) or diag.code in _NO_ACTIONS:
                    continue
                action = self.suppress_action(doc, diag)
                if action is not None:
                    actions.append(action)
                if diag.code == "JC501":
                    findings = [f for f in self.fresh_findings(path, doc) if f.code == "JC501" and f.span.line == diag.range.start.line + 1]
                    action = self.fix_action(doc, path, findings, "Insert the five-questions section",
                                             types.CodeActionKind.QuickFix, [diag])
                    if action is not None:
                        actions.append(action)
        if wanted and _wants(wanted, FIX_ALL_KIND):
            findings = [f for f in self.fresh_findings(path, doc) if f.code == "JC501"]
            action = self.fix_action(doc, path, findings, "jobcheck: insert every missing five-questions section",
                                     FIX_ALL_KIND, None)
            if action is not None:
                actions.append(action)
        return actions

    def fresh_findings(self, path: Path, doc) -> list:
        """The document's findings, if they were computed from its current text."""
        result = self.results.get(path)
        if result is None or result.versions.get(path) != doc.version:
            return []
        return result.findings_for(path)

    def suppress_action(self, doc, diag: types.Diagnostic) -> types.CodeAction | None:
        from ..fix import suppression

        end_line = (diag.data or {}).get("end_line") if isinstance(diag.data, dict) else None
        edit = suppression.suppress(doc.source, diag.code, diag.range.start.line + 1, end_line or diag.range.end.line + 1)
        if edit is None:
            return None
        lines = convert.split_lines(doc.source)
        text = lines[edit.line - 1] if edit.line <= len(lines) else ""
        units = self.workspace.position_codec.client_num_units
        rng = types.Range(types.Position(edit.line - 1, units(text[: edit.start])), types.Position(edit.line - 1, units(text[: edit.end])))
        return types.CodeAction(
            title=f"Suppress {diag.code} on this line", kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
            edit=types.WorkspaceEdit(changes={doc.uri: [types.TextEdit(range=rng, new_text=edit.text)]}),
        )

    def fix_action(self, doc, path: Path, findings: list, title: str, kind, diagnostics) -> types.CodeAction | None:
        if not findings:
            return None
        from .. import fix

        result = self.results[path]
        try:
            new_text, fixed = fix.fix_text(doc.source, findings, result.report.project, result.config.docstring_section)
        except fix.FixError:
            return None
        if not fixed or new_text == doc.source:
            return None
        edit = _text_edit(doc.source, new_text, self.workspace.position_codec.client_num_units)
        return types.CodeAction(title=title, kind=kind, diagnostics=diagnostics, is_preferred=True,
                                edit=types.WorkspaceEdit(changes={doc.uri: [edit]}))


def _wants(only: list | None, kind) -> bool:
    if not only:
        return True
    value = kind.value if hasattr(kind, "value") else kind
    return any(value == k or value.startswith(f"{getattr(k, 'value', k)}.") for k in only)


def _text_edit(old: str, new: str, units) -> types.TextEdit:
    """One edit replacing the part of `old` that differs from `new`."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    while start > 0 and old[start - 1] == "\r":
        start -= 1  # never split a \r\n
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    while end_old < len(old) and end_old > start and old[end_old - 1] == "\r":
        end_old += 1
        end_new += 1
    return types.TextEdit(range=types.Range(_position(old, start, units), _position(old, end_old, units)),
                          new_text=new[start:end_new])


def _position(text: str, offset: int, units) -> types.Position:
    before = convert.split_lines(text[:offset])
    return types.Position(len(before) - 1, units(before[-1]))


def _path(uri: str) -> Path | None:
    """The real path of a `file:` URI (percent-decoded), None for another scheme. Raises BadPath
    for a path the system refuses (a NUL byte). A symlink loop is its own path: realpath, unlike
    Path.resolve() before Python 3.13, does not raise on it."""
    if not uri.startswith("file:"):
        return None
    fs = to_fs_path(uri)
    if not fs:
        return None
    try:
        return Path(os.path.realpath(fs))
    except (OSError, ValueError) as exc:
        raise BadPath(f"its path cannot be used ({exc})") from exc


def _known_path(uri: str) -> Path | None:
    """`_path`, None for a document that has no usable path (`analyse` reports those)."""
    try:
        return _path(uri)
    except BadPath:
        return None


def _is_python(doc) -> bool:
    return doc.uri.endswith((".py", ".pyi")) or doc.language_id == "python"


def build() -> JobcheckServer:
    server = JobcheckServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: JobcheckServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
            ls.debounce = max(0.0, float(options["debounce"]))

    @server.feature(types.INITIALIZED)
    async def initialized(ls: JobcheckServer, params: types.InitializedParams) -> None:
        # The folders' URIs as the client sent them: pygls's keys are decoded already.
        folders = [p for folder in ls.workspace.folders.values() for p in [_known_path(folder.uri)] if p]
        if not folders and ls.workspace.root_path:
            folders = [Path(os.path.realpath(ls.workspace.root_path))]
        ls.index.folders = folders
        caps = ls.client_capabilities.workspace
        watched = caps.did_change_watched_files if caps else None
        if watched is not None and watched.dynamic_registration:
            try:
                await ls.client_register_capability_async(types.RegistrationParams(registrations=[types.Registration(
                    id="jobcheck-watch", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                        types.FileSystemWatcher(glob_pattern="**/pyproject.toml"),
                        types.FileSystemWatcher(glob_pattern="**/*.py"),
                    ]),
                )]))
            except Exception as exc:  # a client that refuses: saving pyproject.toml still reloads
                log.info("could not register file watchers: %s", exc)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: JobcheckServer, params: types.DidOpenTextDocumentParams) -> None:
        doc = ls.document(params.text_document.uri)
        if doc is not None and _is_python(doc):
            path = _known_path(doc.uri)
            if path is not None and not ls.index.knows(path):
                ls.index.forget_files()  # a file created since the last discovery
            await ls.analyse(doc.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: JobcheckServer, params: types.DidChangeTextDocumentParams) -> None:
        doc = ls.document(params.text_document.uri)
        if doc is not None and _is_python(doc):
            ls.schedule(doc.uri, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    async def did_save(ls: JobcheckServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.endswith("pyproject.toml"):
            await ls.analyse_all()
            return
        doc = ls.document(uri)
        if doc is not None and _is_python(doc):
            ls.index.forget_files()  # for editors that do not watch files: a save is a good moment
            ls.schedule(uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: JobcheckServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        timer = ls.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        path = _known_path(uri)
        if path is not None:
            ls.results.pop(path, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(ls: JobcheckServer, params: types.DidChangeWatchedFilesParams) -> None:
        if any(c.type != types.FileChangeType.Changed for c in params.changes if c.uri.endswith(".py")):
            ls.index.forget_files()
        await ls.analyse_all()

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND], resolve_provider=False))
    async def code_action(ls: JobcheckServer, params: types.CodeActionParams):
        # libcst may take a moment on a large file: keep the loop free for other messages.
        return await asyncio.to_thread(ls.code_actions, params) or None

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: JobcheckServer, params) -> None:
        for timer in ls.timers.values():
            timer.cancel()
        ls.timers.clear()
        ls.analysis_pool.shutdown(wait=False, cancel_futures=True)

    return server


def serve() -> None:
    logging.basicConfig(level=logging.WARNING)
    # pygls reads what FramedStdin hands it: every message framed correctly, whatever came in.
    build().start_io(stdin=FramedStdin(sys.stdin.buffer))
