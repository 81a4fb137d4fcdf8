# jobcheck-test: select=JC501
# `opsdesk` is manage.py under another name: the documentation's `opsdesk deploy` runs the Django
# command `deploy` (this function is no job of its own).
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "opsdesk.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
