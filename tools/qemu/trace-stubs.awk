#!/usr/bin/awk -f
# trace-stubs.awk trace-events - inline no-op trace_*() functions for the
# host unit tests (swai-trace.h), one per event, with QEMU's signatures.
BEGIN { print "/* generated from tools/qemu/trace-events: do not edit */" }
/^[a-z_0-9]+\(/ {
	name = substr($0, 1, index($0, "(") - 1)
	args = substr($0, index($0, "(") + 1)
	args = substr(args, 1, index(args, ")") - 1)
	body = ""
	if (args != "void") {
		n = split(args, a, ",")
		for (i = 1; i <= n; i++) {
			k = split(a[i], w, " ")
			gsub(/\*/, "", w[k])
			body = body " (void)" w[k] ";"
		}
	}
	printf "static inline void trace_%s(%s) {%s }\n", name, args, body
}
