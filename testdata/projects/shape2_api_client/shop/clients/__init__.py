from .crm import CrmClient
from .partner import PartnerClient

__all__ = ["CrmClient", "PartnerClient"]
