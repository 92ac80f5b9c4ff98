# tierprobe: IOPS (left axis) and latency (right axis) against the queue
# depth, with the IOPS ceiling (its 95% interval shaded; "at least" for a
# lower bound) and the depth where it is reached (knee).
set logscale x 2
set xlabel 'iodepth (I/Os in flight, log scale)'
set ylabel 'IOPS'
set y2label 'latency (microseconds)'
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
set offsets 0, 0, graph 0.12, 0
set format y '%.0f'
set key bottom right box opaque
if (knee > 0) {
	set arrow 1 from knee, graph 0 to knee, graph 1 nohead ls 5
	set label 1 sprintf('knee: iodepth %d', knee) at knee, graph 0.5 \
		offset 0.5, 0 left
}
if (ceiling_high > 0) {
	set object 3 rect from graph 0, first ceiling_low to graph 1, \
		first ceiling_high fc rgb '#1f5fa8' fs transparent solid 0.12 \
		noborder behind
}
if (ceiling > 0) {
	set arrow 2 from graph 0, first ceiling to graph 1, first ceiling \
		nohead lc rgb '#1f5fa8' dt 3 lw 1.5
	set label 2 'ceiling '.ceiling_label.' IOPS' at graph 0.99, \
		first ceiling offset 0, 0.8 right tc rgb '#1f5fa8'
}
plot 'qd.dat' using 1:3 axes x1y1 with linespoints ls 1 title 'IOPS', \
     'qd.dat' using 1:5 axes x1y2 with linespoints ls 3 title 'p50 latency', \
     'qd.dat' using 1:6 axes x1y2 with linespoints ls 2 title 'p99 latency'
