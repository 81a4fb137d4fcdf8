# jobcheck-test: select=JC501
"""The application's own job queue: a row names a method by its path on the root socket, and the
runner finds it with `operator.attrgetter(job.function)(self.root)`."""
from operator import attrgetter

from sqlalchemy import insert
from sqlalchemy.orm import Session

from lab.models import AuditORM, InternalJobORM


class JobSocket:
    def __init__(self, root):
        self.root = root

    def add(self, name, function, session: Session, unique=False):
        if unique:
            stmt = insert(InternalJobORM).values(name=name, function=function)
            session.execute(stmt)
        else:
            job = InternalJobORM(name=name, function=function)
            session.add(job)

    def audit(self, action, session: Session):
        session.add(AuditORM(action=action))  # another field: its strings are no jobs

    def run_one(self, job):
        func = attrgetter(job.function)(self.root)
        return func()
