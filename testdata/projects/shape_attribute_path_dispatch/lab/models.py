from sqlalchemy import Column, Integer, String
from sqlalchemy.orm import declarative_base

Base = declarative_base()


class InternalJobORM(Base):
    __tablename__ = "internal_jobs"
    id = Column(Integer, primary_key=True)
    name = Column(String)
    function = Column(String)


class AuditORM(Base):
    __tablename__ = "audit"
    id = Column(Integer, primary_key=True)
    action = Column(String)
