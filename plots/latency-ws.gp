# tierprobe: read latency against working-set size (log-log), with the
# tier boundaries found (dashed) and their 95% intervals (shaded).
set logscale x 2
set logscale y 10
set xlabel 'working set (log scale)'
set ylabel 'read latency (microseconds, log scale)'
set format y '%g'
set xtics ()
set for [i=0:60] xtics add (size_label(2.0**i) 2.0**i)
set xtics rotate by -30
set mxtics 2
# Above the plot, not over the first points: a slow start's p99 sits top left.
set key above horizontal box opaque
if (has_model) {
	plot 'scan.dat' using 1:2 with linespoints ls 1 title 'p50 measured', \
	     'scan.dat' using 1:3 with linespoints ls 2 title 'p99 measured', \
	     'scan.dat' using 1:4 with points ls 4 title 'mean measured', \
	     'model.dat' using 1:2 with lines ls 5 title 'tier model (mean)'
} else {
	plot 'scan.dat' using 1:2 with linespoints ls 1 title 'p50 measured', \
	     'scan.dat' using 1:3 with linespoints ls 2 title 'p99 measured', \
	     'scan.dat' using 1:4 with points ls 4 title 'mean measured'
}
