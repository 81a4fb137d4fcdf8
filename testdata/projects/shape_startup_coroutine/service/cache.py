rates = {}
usage = {}
