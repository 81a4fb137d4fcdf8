"""The language server (`jobcheck lsp`): diagnostics and code actions for editors.

`workspace` decides what to analyse (the open document, the other files of its project from disk,
the editors' unsaved text) and caches summaries; `convert` turns findings into LSP diagnostics;
`server` is the pygls wiring (debouncing, publishing, code actions). pygls and lsprotocol are
imported by `convert` and `server` only, so the rest of jobcheck never needs them.
"""
