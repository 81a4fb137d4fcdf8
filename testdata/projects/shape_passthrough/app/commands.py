# A function passing its arguments on is a call of what it calls where it is called, and itself
# where it is named: a string naming it through the package's re-export schedules it.
import subprocess


def run_cmd(*args, **kwargs):  # expect: JC501
    return subprocess.run(*args, **kwargs)
