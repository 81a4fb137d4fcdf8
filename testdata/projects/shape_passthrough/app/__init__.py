from .commands import run_cmd
