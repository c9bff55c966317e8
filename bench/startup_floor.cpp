// An empty program linked as voxkit is (the same shared libraries, loaded and initialised):
// bench_startup's measure of what start-up costs before any of voxkit's own code runs.
int main() { return 0; }
