from . import res_partner, sync_log
