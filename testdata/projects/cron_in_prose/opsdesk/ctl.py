# jobcheck-test: select=JC501
# `deskctl` hands a command line to Django only after `manage`: `deskctl status` runs its own
# `status`, not the Django command of that name.
import sys

from django.core.management import execute_from_command_line


def main():  # expect: JC501
    if len(sys.argv) > 1 and sys.argv[1] == "manage":
        execute_from_command_line(sys.argv[1:])
    else:
        print("desk is up")
