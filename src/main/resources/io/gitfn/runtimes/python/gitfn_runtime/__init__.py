"""gitfn's python312 runtime: serves one Kyma-style Function handler over HTTP (see server.py)."""
