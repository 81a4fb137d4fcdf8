"""End to end: pytest-lsp starts the real `jobcheck lsp` process and drives it as an editor does."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from jobcheck.ruledocs import rules_dir  # noqa: E402

NOTIFY = '''\
from django.core.mail import send_mail


def tell_customer(address, body):
    send_mail("Your invoice", body, "billing@example.com", [address])
'''

JOBS = '''\
import requests
from celery import shared_task

from notify import tell_customer


@shared_task(autoretry_for=(Exception,), max_retries=3)
def send_invoice(invoice_id, address):
    tell_customer(address, f"invoice {invoice_id}")


@shared_task(autoretry_for=(Exception,), max_retries=3)
def post_hook(order_id):
    note = "😀"; requests.post("https://partner.example/hook", json={"order": order_id})
'''

BROKEN = JOBS.replace("def post_hook(order_id):", "def post_hook(order_id:")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.jobcheck]\n", encoding="utf-8")
    (tmp_path / "notify.py").write_text(NOTIFY, encoding="utf-8")
    (tmp_path / "jobs.py").write_text(JOBS, encoding="utf-8")
    return tmp_path


def recording_client() -> LanguageClient:
    """pytest-lsp's client, also keeping every publishDiagnostics in order (`published`)."""
    from pygls.protocol import default_converter
    from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

    client = LanguageClient(converter_factory=default_converter)
    client.published = []

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.published.append(params)
        client.diagnostics[params.uri] = params.diagnostics

    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish})
    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "jobcheck.cli", "lsp"],
                                              client_factory=recording_client))
async def client(lsp_client: LanguageClient, workspace: Path):
    registrations: list[types.Registration] = []
    lsp_client.registrations = registrations

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:  # as VS Code does: accept and record
        registrations.extend(params.registrations)

    capabilities = pytest_lsp.client_capabilities("visual-studio-code")
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=capabilities,
        root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="ws")],
        initialization_options={"debounce": 0.3},  # the default, as editors will run it
    ))
    yield
    await lsp_client.shutdown_session()


async def until(client: LanguageClient, uri: str, predicate, timeout: float = 15.0):
    """The document's diagnostics once `predicate` holds for them."""
    async def wait():
        while True:
            current = client.diagnostics.get(uri)
            if current is not None and predicate(current):
                return current
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return await asyncio.wait_for(wait(), timeout)


def codes(diagnostics) -> list[str]:
    return sorted(d.code for d in diagnostics)


def open_doc(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="python", version=version, text=path.read_text(encoding="utf-8") if text is None else text)))
    return uri


def change(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
    ))


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions) the way an editor does."""
    lines = text.splitlines(keepends=True)

    def offset(pos: types.Position) -> int:
        before = sum(len(line) for line in lines[: pos.line])
        line = lines[pos.line] if pos.line < len(lines) else ""
        units, chars = 0, 0
        while units < pos.character and chars < len(line):
            units += 2 if ord(line[chars]) > 0xFFFF else 1
            chars += 1
        return before + chars

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    return text


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines()) if needle in line)


@pytest.mark.asyncio
async def test_diagnostics_on_open_with_codes_links_and_chain(client: LanguageClient, workspace: Path):
    uri = open_doc(client, workspace / "jobs.py")
    diags = await until(client, uri, lambda d: "JC201" in codes(d))
    assert codes(diags) == ["JC201", "JC201", "JC501", "JC501"]
    assert all(d.source == "jobcheck" for d in diags)

    helper_call = next(d for d in diags if d.code == "JC201" and d.range.start.line == line_of(JOBS, "tell_customer(address"))
    assert helper_call.severity == types.DiagnosticSeverity.Error
    assert (helper_call.range.start.character, helper_call.range.end.line) == (4, helper_call.range.start.line)
    href = helper_call.code_description.href
    assert href.startswith("file://") and href.endswith("/JC201.md")
    assert Path(href.removeprefix("file://")) == (rules_dir() / "JC201.md").resolve()
    # The chain, as places to go: the job, its retry setting, the call into the helper, and the
    # send in the other module (not open in the editor: read from the workspace).
    related = [(Path(r.location.uri.removeprefix("file://")).name, r.location.range.start.line, r.message)
               for r in helper_call.related_information]
    assert ("jobs.py", line_of(JOBS, "def send_invoice"), "job `jobs.send_invoice` (celery task)") in related
    assert any(name == "jobs.py" and line == line_of(JOBS, "@shared_task") and "autoretry_for" in msg for name, line, msg in related)
    assert ("notify.py", line_of(NOTIFY, "send_mail(\"Your"), "step 2: `notify.tell_customer` calls `mail.send_mail`") in related

    # Columns are in UTF-16 units: the emoji before the call counts 2, not its 4 UTF-8 bytes.
    direct = next(d for d in diags if d.code == "JC201" and d.range.start.line == line_of(JOBS, "requests.post"))
    line = JOBS.splitlines()[direct.range.start.line]
    assert direct.range.start.character == len(line[: line.index("requests")].encode("utf-16-le")) // 2
    (step,) = [r for r in direct.related_information if r.message.startswith("step 1")]
    assert step.location.range == direct.range  # from the analysis's byte columns, same place
    five = next(d for d in diags if d.code == "JC501" and d.range.start.line == line_of(JOBS, "def send_invoice"))
    assert five.severity == types.DiagnosticSeverity.Warning
    assert (five.range.start.character, five.range.end.character) == (4, 4 + len("send_invoice"))


@pytest.mark.asyncio
async def test_a_document_that_does_not_parse_gives_jc000_and_the_server_keeps_serving(client: LanguageClient, workspace: Path):
    uri = open_doc(client, workspace / "jobs.py")
    await until(client, uri, lambda d: "JC201" in codes(d))
    change(client, uri, BROKEN, 2)
    diags = await until(client, uri, lambda d: codes(d) == ["JC000"])
    assert diags[0].severity == types.DiagnosticSeverity.Error
    assert diags[0].range.start.line == line_of(BROKEN, "def post_hook")
    assert diags[0].range.end.character > diags[0].range.start.character  # visible, not empty
    # Still serving: a request is answered, and fixing the text brings the findings back.
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=diags[0].range,
        context=types.CodeActionContext(diagnostics=list(diags))))
    assert not actions  # nothing to offer for a parse error
    change(client, uri, JOBS, 3)
    await until(client, uri, lambda d: codes(d) == ["JC201", "JC201", "JC501", "JC501"])


@pytest.mark.asyncio
async def test_debounced_changes_publish_the_last_text(client: LanguageClient, workspace: Path):
    uri = open_doc(client, workspace / "jobs.py")
    await until(client, uri, lambda d: "JC201" in codes(d))
    safe = JOBS.replace("autoretry_for=(Exception,), max_retries=3", "max_retries=0")
    before = len(client.published)
    for version, text in enumerate([BROKEN, JOBS, BROKEN, safe], start=2):  # typed faster than the debounce
        change(client, uri, text, version)
    diags = await until(client, uri, lambda d: "JC000" not in codes(d) and "JC201" not in codes(d))
    assert codes(diags) == ["JC501", "JC501"]
    # One analysis, of the last text: the broken texts typed on the way were never reported.
    after = [p for p in client.published[before:] if p.uri == uri]
    assert [p.version for p in after] == [5]
    # Saving analyses again (the file on disk may be what other files' diagnostics read).
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await until(client, uri, lambda d: len([p for p in client.published[before:] if p.uri == uri]) == 2)


@pytest.mark.asyncio
async def test_code_actions_suppress_and_insert_the_section(client: LanguageClient, workspace: Path):
    uri = open_doc(client, workspace / "jobs.py")
    diags = await until(client, uri, lambda d: "JC201" in codes(d))
    helper_call = next(d for d in diags if d.code == "JC201" and d.range.start.line == line_of(JOBS, "tell_customer(address"))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=helper_call.range,
        context=types.CodeActionContext(diagnostics=[helper_call])))
    assert [a.title for a in actions] == ["Suppress JC201 on this line"]
    text = apply_edits(JOBS, actions[0].edit.changes[uri])
    assert '    tell_customer(address, f"invoice {invoice_id}")  # jobcheck: ignore[JC201]\n' in text
    change(client, uri, text, 2)
    diags = await until(client, uri, lambda d: codes(d) == ["JC201", "JC501", "JC501"])

    five = next(d for d in diags if d.code == "JC501" and d.range.start.line == line_of(text, "def send_invoice"))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=five.range,
        context=types.CodeActionContext(diagnostics=[five])))
    assert [a.title for a in actions] == ["Suppress JC501 on this line", "Insert the five-questions section"]
    fixed = apply_edits(text, actions[1].edit.changes[uri])
    assert "    Reliability:\n        Runs twice: TODO - " in fixed
    assert "email via notify.tell_customer -> mail.send_mail." in fixed.replace("\n            ", " ")
    change(client, uri, fixed, 3)
    diags = await until(client, uri, lambda d: "JC502" in codes(d))
    assert codes(diags) == ["JC201", "JC501", "JC502"]  # the placeholders are reported until answered

    # A suppression merges into the jobcheck comment already on the line.
    second = apply_edits(fixed, (await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=diags[0].range,
        context=types.CodeActionContext(diagnostics=[d for d in diags if d.code == "JC201"]))))[0].edit.changes[uri])
    assert 'requests.post("https://partner.example/hook", json={"order": order_id})  # jobcheck: ignore[JC201]' in second

    all_fixes = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
    assert [a.kind for a in all_fixes] == ["source.fixAll.jobcheck"]
    assert apply_edits(fixed, all_fixes[0].edit.changes[uri]).count("Reliability:") == 2


@pytest.mark.asyncio
async def test_configuration_reloads_when_pyproject_changes(client: LanguageClient, workspace: Path):
    uri = open_doc(client, workspace / "jobs.py")
    await until(client, uri, lambda d: "JC501" in codes(d))
    watched = [w["globPattern"] for r in client.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
               for w in r.register_options["watchers"]]
    assert "**/pyproject.toml" in watched
    pyproject = workspace / "pyproject.toml"
    pyproject.write_text('[tool.jobcheck]\nignore = ["JC501"]\n', encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]))
    diags = await until(client, uri, lambda d: "JC501" not in codes(d))
    assert codes(diags) == ["JC201", "JC201"]
    # A bad configuration is reported, as the CLI reports it, and does not stop the server.
    pyproject.write_text('[tool.jobcheck]\nignroe = ["JC501"]\n', encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]))
    diags = await until(client, uri, lambda d: any("configuration error" in x.message for x in d))
    assert "tool.jobcheck.ignroe" in diags[0].message
    pyproject.write_text("[tool.jobcheck]\n", encoding="utf-8")
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(pyproject.as_uri())))
    await until(client, uri, lambda d: codes(d) == ["JC201", "JC201", "JC501", "JC501"])


@pytest.mark.asyncio
async def test_unsaved_edits_in_a_helper_update_the_job(client: LanguageClient, workspace: Path):
    jobs = open_doc(client, workspace / "jobs.py")
    notify = open_doc(client, workspace / "notify.py")
    await until(client, jobs, lambda d: codes(d) == ["JC201", "JC201", "JC501", "JC501"])
    change(client, notify, NOTIFY.replace('    send_mail("Your invoice", body, "billing@example.com", [address])', "    return body"), 2)
    diags = await until(client, jobs, lambda d: codes(d) == ["JC201", "JC501", "JC501"])
    assert next(d for d in diags if d.code == "JC201").range.start.line == line_of(JOBS, "requests.post")
    assert list(client.diagnostics[notify]) == []


@pytest.mark.asyncio
async def test_round_trip_for_a_1000_line_file(client: LanguageClient, workspace: Path, capsys):
    parts = ["import requests\nfrom celery import shared_task\n\n"]
    i = 0
    while sum(p.count("\n") for p in parts) < 1000:
        parts.append(
            f"\n\n@shared_task(autoretry_for=(Exception,), max_retries=3)\n"
            f"def job_{i}(order_id, rows):\n"
            f"    total = 0\n"
            f"    for row in rows:\n"
            f"        if row.amount > {i}:\n"
            f"            total += row.amount\n"
            f"    requests.post('https://partner.example/{i}', json={{'total': total}})\n"
        )
        i += 1
    text = "".join(parts)
    big = workspace / "big.py"
    big.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    uri = open_doc(client, big)
    diags = await until(client, uri, lambda d: len(d) > 0)
    elapsed = time.perf_counter() - started
    assert codes(diags).count("JC201") == i and codes(diags).count("JC501") == i
    # An edit: published after the debounce pause plus one analysis (the other files are cached).
    started = time.perf_counter()
    change(client, uri, text.replace("total = 0", "total = 1", 1), 2)
    await until(client, uri, lambda d: any(p.uri == uri and p.version == 2 for p in client.published))
    edited = time.perf_counter() - started - 0.3
    with capsys.disabled():
        print(f"\nLSP round trip, {text.count(chr(10))} lines, {i} jobs: didOpen -> publishDiagnostics "
              f"{elapsed * 1000:.0f} ms; didChange -> publishDiagnostics {edited * 1000:.0f} ms after the 300 ms pause")
    assert elapsed < 5.0 and edited < 5.0


# ---- what the server analyses (in-process, no editor) ------------------------------------------


def test_a_restarted_server_reads_summaries_from_the_cache(tmp_path: Path, monkeypatch) -> None:
    """The first analysis summarises the files on disk through the CLI's cache (in the project
    folder when nothing configures jobcheck); a new server reads them back and summarises only
    the open document's text."""
    from jobcheck.analysis import source as engine
    from jobcheck.integrations.lsp.workspace import Workspace

    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "notify.py").write_text(NOTIFY, encoding="utf-8")
    (tmp_path / "app" / "more.py").write_text("def more():\n    return 1\n", encoding="utf-8")
    jobs = (tmp_path / "app" / "jobs.py").resolve()
    jobs.write_text(JOBS, encoding="utf-8")
    first = Workspace([tmp_path]).analyse(jobs, {jobs: (JOBS, 1)})
    assert len(list((tmp_path / ".jobcheck_cache").rglob("s-*"))) == 2  # the files not open

    real = engine.summarize_bytes
    read = []
    monkeypatch.setattr(engine, "summarize_bytes", lambda data, display, *a: read.append(display) or real(data, display, *a))
    again = Workspace([tmp_path]).analyse(jobs, {jobs: (JOBS, 1)})
    assert read == []
    assert again.findings_for(jobs) == first.findings_for(jobs) and len(first.findings_for(jobs)) == 4


def test_without_configuration_the_workspace_folder_is_the_project(tmp_path: Path) -> None:
    from jobcheck.integrations.lsp.workspace import Workspace

    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "notify.py").write_text(NOTIFY, encoding="utf-8")
    jobs = tmp_path / "app" / "jobs.py"
    jobs.write_text(JOBS, encoding="utf-8")
    index = Workspace([tmp_path])
    first = index.analyse(jobs, {jobs.resolve(): (JOBS, 1)})
    assert first.root == tmp_path.resolve() and first.config.path is None
    assert sorted(f.code for f in first.findings_for(jobs.resolve())) == ["JC201", "JC201", "JC501", "JC501"]

    # The editor's unsaved text of the helper wins over the file on disk; unchanged files are
    # not summarised again.
    notify = (tmp_path / "app" / "notify.py").resolve()
    quiet = NOTIFY.replace('    send_mail("Your invoice", body, "billing@example.com", [address])', "    return body")
    second = index.analyse(jobs, {jobs.resolve(): (JOBS, 1), notify: (quiet, 1)})
    assert sorted(f.code for f in second.findings_for(jobs.resolve())) == ["JC201", "JC501", "JC501"]
    summaries = {s.path: s for s in first.report.summaries}
    assert all(s is summaries[s.path] for s in second.report.summaries if s.path != str(notify))

    # A file created on disk takes part once the server hears of it.
    (tmp_path / "app" / "more.py").write_text("from celery import shared_task\n\n\n@shared_task\ndef more():\n    pass\n", encoding="utf-8")
    assert "more.more" not in index.analyse(jobs, {jobs.resolve(): (JOBS, 1)}).report.project.jobs
    index.forget_files()
    assert "more.more" in index.analyse(jobs, {jobs.resolve(): (JOBS, 1)}).report.project.jobs


# ---- hostile input: odd URIs, bad documents, broken framing (issue 19) -------------------------


def raw(client: LanguageClient, data: bytes) -> None:
    """Bytes written to the server's stdin as they are, framing and all."""
    client._server.stdin.write(data)


def frame(body: bytes, length: int | str | None = None) -> bytes:
    header = b"" if length == "missing" else b"Content-Length: %d\r\n" % (len(body) if length is None else length)
    return header + b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + body


def did_open_body(path_uri: str, text: str) -> bytes:
    import json

    return json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": path_uri, "languageId": "python", "version": 1, "text": text}}}).encode()


@pytest.mark.asyncio
async def test_percent_encoded_uris_are_found_and_get_diagnostics(client: LanguageClient, workspace: Path):
    """Editors encode spaces, non-ASCII letters and a Windows drive's colon in URIs; pygls keeps
    documents under the decoded URI, and the server finds them there."""
    folder = workspace / "my project"
    folder.mkdir()
    (folder / "tâche.py").write_text(JOBS, encoding="utf-8")
    uri = open_doc(client, folder / "tâche.py")
    assert "my%20project/t%C3%A2che.py" in uri
    diags = await until(client, uri, lambda d: "JC501" in codes(d))
    assert codes(diags) == ["JC201", "JC201", "JC501", "JC501"]  # the helper in the project is read too
    change(client, uri, BROKEN, 2)
    await until(client, uri, lambda d: codes(d) == ["JC000"])
    windows = "file:///c%3A/Users/me/jobs.py"  # as VS Code writes a Windows path
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=windows, language_id="python", version=1, text=JOBS)))
    await until(client, windows, lambda d: "JC501" in codes(d))


@pytest.mark.asyncio
async def test_a_bad_document_is_reported_and_the_others_keep_their_diagnostics(client: LanguageClient, workspace: Path):
    """A symlink loop, and a URI holding %00 (resolving either raised, outside the analysis's
    error handling, for every document from then on): each gets a diagnostic, the others are
    analysed as before."""
    (workspace / "loop.py").symlink_to("loop.py")
    loop = open_doc(client, workspace / "loop.py", text=JOBS)
    nul = (workspace / "bad.py").as_uri().replace("bad.py", "bad%00.py")
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=nul, language_id="python", version=1, text=JOBS)))
    bad = await until(client, nul, lambda d: len(d) > 0)
    assert bad[0].severity == types.DiagnosticSeverity.Error and "cannot analyse" in bad[0].message
    assert "JC501" in codes(await until(client, loop, lambda d: len(d) > 0))
    uri = open_doc(client, workspace / "jobs.py")
    await until(client, uri, lambda d: codes(d) == ["JC201", "JC201", "JC501", "JC501"])
    change(client, uri, BROKEN, 2)
    await until(client, uri, lambda d: codes(d) == ["JC000"])


@pytest.mark.asyncio
@pytest.mark.parametrize("garbage", [
    pytest.param(b"\x00\xffnot a header at all\r\n\r\n{]", id="garbage"),
    pytest.param(frame(b'{"jsonrpc": "2.0", "method": "initialized", "params": {}}', "missing"), id="no-length"),
    pytest.param(frame(b'{"jsonrpc": "2.0", "method": "initialized", "params": {}}', -5), id="negative"),
    pytest.param(frame(b'{"jsonrpc": "2.0", "method": "initialized", "params": {}}', 10), id="too-short"),
    pytest.param(frame(b'{"jsonrpc": "2.0", "method": "initialized", "params": {}}', 99999999999999), id="huge"),
    pytest.param(b"Content-Length: abc\r\n\r\n{}", id="not-a-number"),
])
async def test_broken_framing_never_leaves_the_server_deaf(client: LanguageClient, workspace: Path, garbage: bytes):
    first = open_doc(client, workspace / "jobs.py")
    await until(client, first, lambda d: len(d) == 4)
    raw(client, garbage)
    uri = open_doc(client, workspace / "other.py", text=JOBS)  # framed properly, right after
    await until(client, uri, lambda d: codes(d) == ["JC201", "JC201", "JC501", "JC501"])
    change(client, first, BROKEN, 2)
    await until(client, first, lambda d: codes(d) == ["JC000"])
    assert client._server.returncode is None


@pytest.mark.asyncio
async def test_a_length_too_large_still_delivers_the_next_message(client: LanguageClient, workspace: Path):
    """A body declared longer than it is ends where the next message's header begins."""
    uri = (workspace / "jobs.py").as_uri()
    body = did_open_body(uri, JOBS)
    raw(client, frame(body, len(body) + 40))
    other = (workspace / "notify.py").as_uri()
    raw(client, frame(did_open_body(other, BROKEN)))
    await until(client, uri, lambda d: codes(d) == ["JC201", "JC201", "JC501", "JC501"])
    await until(client, other, lambda d: codes(d) == ["JC000"])


@pytest.mark.asyncio
async def test_a_request_with_missing_parameters_gets_an_error_response(client: LanguageClient, workspace: Path):
    """Written raw: the client's own serialiser would refuse these."""
    import json

    from pygls.exceptions import JsonRpcException

    uri = (workspace / "jobs.py").as_uri()
    for msg_id, params in enumerate([{}, {"textDocument": {"uri": uri}}, None], start=9000):
        answered = asyncio.get_running_loop().create_future()
        client.protocol._request_futures[msg_id] = answered
        raw(client, frame(json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/codeAction",
                                      "params": params}).encode()))
        with pytest.raises(JsonRpcException) as error:
            await asyncio.wait_for(answered, 10)
        assert error.value.code == -32602  # invalid params
    uri = open_doc(client, workspace / "jobs.py")
    await until(client, uri, lambda d: len(d) == 4)


def test_the_framer_finds_every_well_framed_message_whatever_surrounds_it() -> None:
    """In-process, the stream arriving in small pieces: bodies are read as they come (a huge
    declared length allocates nothing), and a body declared too long ends at the next header."""
    import io
    import json
    import tracemalloc

    from jobcheck.integrations.lsp.framing import Framer

    bodies = [json.dumps({"jsonrpc": "2.0", "id": i, "method": "x", "params": {"t": "é" * i * 50}}).encode() for i in range(8)]
    filler = b'{"jsonrpc": "2.0", "method": "lost"}'
    stream = (frame(bodies[0]) + b"\x00\xffgarbage\r\n\r\n{]" + frame(bodies[1]) + frame(filler, "missing")
              + frame(bodies[2]) + frame(filler, -5) + frame(bodies[3]) + frame(filler, 10) + frame(bodies[4])
              + frame(filler, 99999999999999) + frame(bodies[5]) + b"Content-Length: abc\r\n\r\n{}"
              + frame(bodies[6], len(bodies[6]) + 40) + frame(bodies[7]))

    class Trickle(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self.data = data

        def read1(self, size: int) -> bytes:
            piece, self.data = self.data[:7], self.data[7:]
            return piece

    tracemalloc.start()
    framer = Framer(Trickle(stream))
    read = list(iter(framer.next_body, None))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    whole = [b for b in read if b.startswith(b"{") and b.endswith(b"}")]
    assert [json.loads(b)["id"] for b in whole if b"lost" not in b] == list(range(8))
    assert peak < 1_000_000


def test_the_workspace_lists_files_as_the_command_line_does(tmp_path: Path) -> None:
    """`.gitignore` and `respect-gitignore`, `max-file-size`: the server's project is the CLI's."""
    from jobcheck import config as config_mod
    from jobcheck.integrations.lsp.workspace import Workspace

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("gen/\n", encoding="utf-8")
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "made.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "big.py").write_text("x = 1\n" * 400, encoding="utf-8")
    (tmp_path / "app.py").write_text("y = 2\n", encoding="utf-8")
    listed = lambda cfg: sorted(Path(p).name for p, _ in Workspace([tmp_path])._discover(tmp_path, cfg))  # noqa: E731

    (tmp_path / "pyproject.toml").write_text("[tool.jobcheck]\nmax-file-size = 1000\n", encoding="utf-8")
    assert listed(config_mod.load(tmp_path / "pyproject.toml")) == ["app.py"]
    (tmp_path / "pyproject.toml").write_text("[tool.jobcheck]\nrespect-gitignore = false\n", encoding="utf-8")
    assert listed(config_mod.load(tmp_path / "pyproject.toml")) == ["app.py", "big.py", "made.py"]
