// The system SQLite C API, for gymlog-bench's raw baseline and bulk history generator.
#include <sqlite3.h>
