// The system SQLite C API: the store's data-version check (WriterMemory), gymlog-bench's raw
// baseline and bulk history generator.
#include <sqlite3.h>
