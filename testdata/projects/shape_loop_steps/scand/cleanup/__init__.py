from scand.cleanup.orphans import remove_orphans

__all__ = ["remove_orphans"]
