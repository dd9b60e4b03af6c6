# tune_from.cmake: `compact tune --from FILE` derives a table from measurements kept by an
# earlier `compact tune --json`: the edge-aware choice per half of a point's n cell, disturbed
# medians, fraction bounds where the choices' times cross, list rules, escaped text, and
# malformed files refused with one line and exit 1. -DCOMPACT=<compact> -DOUT_DIR=<scratch>
include(${CMAKE_CURRENT_LIST_DIR}/bench_expect.cmake)
function(derive in out)
  compact(0 tune --from ${in} --out ${out} --quiet)
endfunction()
# measurements(NAME RECORDS...): NAME.json holds the records, algorithm:n:ms[:removed] (element
# size 4, 50 % removed unless given); the table derived from it is NAME_table.json, its path in
# `table` and its text in `json`.
function(measurements name)
  set(recs "")
  set(sep "")
  foreach(triple IN LISTS ARGN)
    string(REPLACE ":" ";" t "${triple}")
    list(GET t 0 algo)
    list(GET t 1 n)
    list(GET t 2 ms)
    set(removed 0.5)
    list(LENGTH t nt)
    if(nt GREATER 3)
      list(GET t 3 removed)
    endif()
    string(APPEND recs "${sep}{\"algorithm\": \"${algo}\", \"kind\": \"algorithm\", \"n\": ${n}, "
           "\"elem_size\": 4, \"removed\": ${removed}, \"tile\": null, \"scan\": null, \"runs\": 5, "
           "\"median_ms\": ${ms}, \"check\": \"ok\"}")
    set(sep ",\n")
  endforeach()
  file(WRITE ${OUT_DIR}/${name}.json "{\"backend\": \"cpu\", \"device\": \"test\", \"commit\": "
       "\"c\", \"date\": \"d\", \"records\": [\n${recs}\n]}\n")
  derive(${OUT_DIR}/${name}.json ${OUT_DIR}/${name}_table.json)
  file(READ ${OUT_DIR}/${name}_table.json text)
  set(table ${OUT_DIR}/${name}_table.json PARENT_SCOPE)
  set(json "${text}" PARENT_SCOPE)
endfunction()
# a field (a path under the rule: algo, or "when;removed_max") of the first rule whose n_min is
# `nmin` ("none": no n_min), whose algo is `algo` ("any": every one) and that has the field; ""
# if no rule does
function(rule_field file nmin algo field out)
  file(READ ${file} json)
  string(JSON count LENGTH "${json}" rules)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON a GET "${json}" rules ${i} algo)
    string(JSON v ERROR_VARIABLE e GET "${json}" rules ${i} ${field})
    string(JSON n ERROR_VARIABLE e2 GET "${json}" rules ${i} when n_min)
    if(e2)
      set(n none)
    endif()
    if(NOT e AND "${n}" STREQUAL "${nmin}"
       AND ("${algo}" STREQUAL "any" OR "${a}" STREQUAL "${algo}"))
      set(${out} ${v} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()
# The last table: the rule for n 1025..2048 (the upper half of 1024's cell) must name `upper`,
# the first rule (n ..1024) `lower`; `what` names the case in the failure.
macro(expect_halves upper lower what)
  rule_field(${table} 1025 any algo a)
  string(JSON b GET "${json}" rules 0 algo)
  if(NOT a STREQUAL "${upper}" OR NOT b STREQUAL "${lower}")
    message(FATAL_ERROR "${what}: n 1025..2048 names ${a} (want ${upper}), n ..1024 names ${b} "
            "(want ${lower})")
  endif()
endmacro()

# serial wins at 1024 by 1 %, but is 1.5x scan-scatter at 4096: scan-scatter takes the upper
# half of 1024's cell (n 1025..2048); the lower half, with no neighbour below, stays serial
measurements(edge serial:1024:1.00 scan-scatter:1024:1.01 serial:4096:3.0 scan-scatter:4096:2.0)
expect_halves(scan-scatter serial "near edge")
# serial wins at 1024 by 30 % and is 1.2x at 4096 (edge ~1.1x): it keeps 1024's upper half
measurements(keep serial:1024:1.00 scan-scatter:1024:1.30 serial:4096:2.4 scan-scatter:4096:2.0)
expect_halves(serial serial "clear win")
# serial's 3.0 at 1024 is above its 1.0 at 4096, so it counts as 1.0: serial takes n ..1024
# (scan-scatter, 1.2 there, would take it on the raw medians)
measurements(mono serial:1024:3.0 scan-scatter:1024:1.2 serial:4096:1.0 scan-scatter:4096:1.3)
string(JSON a GET "${json}" rules 0 algo)
if(NOT a STREQUAL "serial")
  message(FATAL_ERROR "disturbed median: n ..1024 names ${a}, want serial")
endif()
# serial 1.0 at 20 % removed and 1.5 at 50 %, scan-scatter 1.2 at both: the lines cross at
# 0.2 + 0.3 * 0.2 / 0.5 = 0.32, not half-way (0.35)
measurements(cross serial:1024:1.0:0.2 scan-scatter:1024:1.2:0.2 serial:1024:1.5:0.5
             scan-scatter:1024:1.2:0.5)
string(JSON a GET "${json}" rules 0 algo)
string(JSON hi GET "${json}" rules 0 when removed_max)
string(JSON b GET "${json}" rules 1 algo)
string(JSON lo GET "${json}" rules 1 when removed_min)
if(NOT a STREQUAL "serial" OR NOT hi MATCHES "^0\\.3200*1?$" OR NOT b STREQUAL "scan-scatter"
   OR NOT lo MATCHES "^0\\.3200*1?$")
  message(FATAL_ERROR "crossover: ${a} up to ${hi}, ${b} from ${lo}; "
          "want serial up to 0.32, scan-scatter from 0.32")
endif()
# a removal list twice as fast as the flag choice: a list rule first, with its gain
measurements(list serial:1024:1.00 scan-scatter:1024:1.30 redzone:1024:0.50 serial:4096:2.4
             scan-scatter:4096:2.0 redzone:4096:1.0)
string(JSON a GET "${json}" rules 0 algo)
string(JSON gain GET "${json}" rules 0 gain)
if(NOT a STREQUAL "redzone" OR NOT gain EQUAL 2)
  message(FATAL_ERROR "list rule: ${a} with gain ${gain}, want redzone with gain 2")
endif()
# with a list, redzone ties serial at 1024 (1.001 against 1.00) and is half serial's time at
# 4096: the neighbour decides, so the upper half of 1024's cell (n 1025..2048) has a list rule
# for redzone; the lower half, with no neighbour, keeps serial
measurements(tie serial:1024:1.00 redzone:1024:1.001 serial:4096:3.0 redzone:4096:1.5)
expect_halves(redzone serial "list tie")
# redzone 0.5 at 20 % removed and 2.0 at 50 %, serial 1.0 at both (n 1024): they cross at 0.3.
# At 4096 redzone takes 2.0 and 16.0, serial 4.0. The upper half's bound uses the times a
# quarter of the way to 4096 in log n (t^3/4 * t4096^1/4): they cross at 0.2799; the lower
# half, with no neighbour, at 0.3
measurements(mid serial:1024:1.0:0.2 redzone:1024:0.5:0.2 serial:1024:1.0:0.5
             redzone:1024:2.0:0.5 serial:4096:4.0:0.2 redzone:4096:2.0:0.2
             serial:4096:4.0:0.5 redzone:4096:16.0:0.5)
rule_field(${table} none redzone "when;removed_max" lower)
rule_field(${table} 1025 redzone "when;removed_max" upper)
if(lower STREQUAL "" OR upper STREQUAL "" OR lower LESS 0.29999 OR lower GREATER 0.30001
   OR upper LESS 0.2798 OR upper GREATER 0.2799)
  message(FATAL_ERROR "list bounds: n ..1024 up to '${lower}' (want 0.3), n 1025..2048 up to "
          "'${upper}' (want 0.2798..)")
endif()
# serial is kept at 20 % removed for n 1025..2048 (scan-scatter is 1.3x the fastest at 4096)
# although scan-scatter is faster there at the half cell's middle, and scan-scatter takes 50 %:
# scan-scatter is at least as fast at both fractions, so the switch lies at 0.2, not half-way
measurements(slow serial:1024:1.10:0.2 scan-scatter:1024:1.00:0.2 serial:1024:1.15:0.5
             scan-scatter:1024:1.00:0.5 serial:4096:2.0:0.2 scan-scatter:4096:2.6:0.2
             serial:4096:4.0:0.5 scan-scatter:4096:2.0:0.5)
rule_field(${table} 1025 serial "when;removed_max" hi)
if(hi STREQUAL "" OR hi LESS 0.19999 OR hi GREATER 0.20001)
  message(FATAL_ERROR "slower choice: serial for n 1025..2048 up to '${hi}', want 0.2")
endif()
compact(0 policy check ${OUT_DIR}/keep_table.json --backend cpu)

# the file's own text (device, date, commit) reaches the table escaped: quotes, backslashes and
# control characters do not break its JSON
file(READ ${OUT_DIR}/keep.json keep)
string(REPLACE "\"device\": \"test\"" "\"device\": \"a\\\"b\\\\c\\td\"" odd "${keep}")
string(REPLACE "\"commit\": \"c\"" "\"commit\": \"\\u0001\\\"\"" odd "${odd}")
file(WRITE ${OUT_DIR}/odd.json "${odd}")
derive(${OUT_DIR}/odd.json ${OUT_DIR}/odd_table.json)
file(READ ${OUT_DIR}/odd_table.json json)
string(JSON device GET "${json}" device)
if(NOT device STREQUAL "a\"b\\c\td")
  message(FATAL_ERROR "device name not kept through the table: '${device}'")
endif()

# malformed inputs: one line, exit 1, no table left behind
file(WRITE ${OUT_DIR}/truncated.json "{\"backend\": \"cpu\", \"records\": [{\"algorithm\": \"ser")
file(WRITE ${OUT_DIR}/nonum.json "{\"backend\": \"cpu\", \"records\": [{\"algorithm\": \"serial\", "
     "\"kind\": \"algorithm\", \"check\": \"ok\", \"n\": \"many\", \"elem_size\": 4, "
     "\"removed\": 0.5, \"median_ms\": 1}]}")
file(WRITE ${OUT_DIR}/unknown.json "{\"backend\": \"cpu\", \"records\": [{\"algorithm\": \"quick\", "
     "\"kind\": \"algorithm\", \"check\": \"ok\", \"n\": 1, \"elem_size\": 4, \"removed\": 0.5, "
     "\"median_ms\": 1}]}")
file(WRITE ${OUT_DIR}/gpu.json "{\"backend\": \"tpu\", \"records\": []}")
file(WRITE ${OUT_DIR}/mixed.json "{\"backend\": \"cpu\", \"records\": [{\"algorithm\": \"cub\", "
     "\"kind\": \"algorithm\", \"check\": \"ok\", \"n\": 1024, \"elem_size\": 4, \"removed\": 0.5, "
     "\"median_ms\": 1}]}")
file(WRITE ${OUT_DIR}/empty.json "{\"backend\": \"cpu\", \"records\": []}")
file(WRITE ${OUT_DIR}/range.json "{\"backend\": \"cpu\", \"records\": [{\"algorithm\": \"serial\", "
     "\"kind\": \"algorithm\", \"check\": \"ok\", \"n\": 1024, \"elem_size\": 4, \"removed\": 1.5, "
     "\"median_ms\": 1}]}")
foreach(case truncated:not\ JSON nonum:out\ of\ range unknown:unknown\ algorithm
        gpu:unknown\ backend empty:no\ checked range:out\ of\ range missing:cannot\ read
        mixed:does\ not\ run\ on\ the\ cpu\ backend)
  string(REPLACE ":" ";" c "${case}")
  list(GET c 0 name)
  list(GET c 1 want)
  file(REMOVE ${OUT_DIR}/t.json)
  compact(1 tune --from ${OUT_DIR}/${name}.json --out ${OUT_DIR}/t.json)
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines nl)
  if(NOT err MATCHES "^compact tune: --from .*${name}.json: .*${want}"
     AND NOT err MATCHES "^compact tune: cannot read .*${name}.json"
     OR NOT nl EQUAL 1 OR EXISTS ${OUT_DIR}/t.json)
    message(FATAL_ERROR "--from ${name}.json: ${nl} lines: ${err}")
  endif()
endforeach()
