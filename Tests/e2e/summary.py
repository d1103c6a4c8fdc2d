"""Lines test modules want printed once at the end of the run (figures to quote); conftest prints them."""
SUMMARY = []
