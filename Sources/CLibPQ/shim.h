// libpq, PostgreSQL's C client (Debian's libpq-dev): the PostgreSQL storage backend's only way to the server.
#include <postgresql/libpq-fe.h>
