#!/usr/bin/awk -f
# Counts test cases in the KTAP output of run_kselftest.sh. Cases are the
# results one level down ("# ok N ..."), reported by each test program;
# a program whose own result is "not ok" without a failed case inside
# (crash, timeout) counts as one more failure, and so does a program that
# reports fewer or more cases than its plan announced. A SKIP counts as
# a failure: nothing in this suite has a reason to skip. An XFAIL (a
# timing bound missed on a machine that said it is slow, selftests/lib.sh
# check_time) is neither: it is counted apart and listed.
# Prints "PASSED FAILED XFAILED" and lists every failure and XFAIL on
# stderr.

/^# 1\.\.[0-9]+$/ { inner_plan = substr($0, 6); inner_seen = 0; next }

/^# ok [0-9]+ / {
	inner_seen++
	if ($0 ~ /# SKIP/) { failed++; inner_bad++; print "SKIPPED: " substr($0, 3) > "/dev/stderr" }
	else if ($0 ~ /# XFAIL/) { xfailed++; print "XFAIL: " substr($0, 3) > "/dev/stderr" }
	else passed++
	next
}
/^# not ok [0-9]+ / {
	inner_seen++
	failed++; inner_bad++
	print "FAILED: " substr($0, 3) > "/dev/stderr"
	next
}
/^ok [0-9]+ / {
	if ($0 ~ /# SKIP/) { failed++; print "SKIPPED: " $0 > "/dev/stderr" }
	if (inner_plan != "" && inner_seen != inner_plan) {
		failed++
		print "PLAN: " $0 " planned " inner_plan " cases, reported " inner_seen > "/dev/stderr"
	}
	inner_plan = ""
	programs++
	inner_bad = 0
	next
}
/^not ok [0-9]+ / {
	if (!inner_bad) failed++
	inner_plan = ""
	print "FAILED: " $0 > "/dev/stderr"
	programs++
	inner_bad = 0
	next
}
/^1\.\.[0-9]+$/ { planned = substr($0, 4) }
END {
	if (programs < planned) {
		failed += planned - programs
		print "MISSING: " planned - programs " of " planned " programs never reported" > "/dev/stderr"
	}
	print passed + 0, failed + 0, xfailed + 0
}
