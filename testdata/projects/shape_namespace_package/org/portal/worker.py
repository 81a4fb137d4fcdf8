# jobcheck-test: select=JC501
"""A daemon loop whose step is named through the namespace (`org.portal.store`), beside an import
of another distribution of the namespace (`org.core`, not in the tree)."""
import time

from org.core.settings import POLL_SECONDS
from org.portal.store import flush_outbox


def main():  # expect: JC501
    while True:
        flush_outbox()
        time.sleep(POLL_SECONDS)


if __name__ == "__main__":
    main()
