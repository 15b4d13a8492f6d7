#include <postgresql/libpq-fe.h>

// libpq's diagnostic field codes are char macros, which Swift does not import.
static const int CLibPQ_DIAG_SEVERITY = 'S';
static const int CLibPQ_DIAG_SQLSTATE = 'C';
static const int CLibPQ_DIAG_MESSAGE_PRIMARY = 'M';
static const int CLibPQ_DIAG_MESSAGE_DETAIL = 'D';
static const int CLibPQ_DIAG_MESSAGE_HINT = 'H';
