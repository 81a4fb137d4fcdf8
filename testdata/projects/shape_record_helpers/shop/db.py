db = None
