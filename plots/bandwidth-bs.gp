# tierprobe: bandwidth (left axis) and IOPS (right axis) against the I/O
# size, with the bandwidth ceiling (its 95% interval shaded; "at least"
# for a lower bound) and the accounting size.
set logscale x 2
set xlabel 'I/O size (log scale)'
set ylabel 'bandwidth (MiB/s)'
set y2label 'IOPS'
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
set offsets 0, 0, graph 0.12, 0
set xtics ()
set for [i=9:30] xtics add (size_label(2.0**i) 2.0**i)
set key top left box opaque
if (ceiling_high > 0) {
	set object 3 rect from graph 0, first ceiling_low / 2.0**20 to \
		graph 1, first ceiling_high / 2.0**20 fc rgb '#1f5fa8' \
		fs transparent solid 0.12 noborder behind
}
if (ceiling > 0) {
	set arrow 1 from graph 0, first ceiling / 2.0**20 to graph 1, \
		first ceiling / 2.0**20 nohead lc rgb '#1f5fa8' dt 3 lw 1.5
	set label 1 'ceiling '.ceiling_label at graph 0.01, \
		first ceiling / 2.0**20 offset 0, 0.8 left tc rgb '#1f5fa8'
}
if (accounting > 0) {
	set arrow 2 from accounting, graph 0 to accounting, graph 1 nohead ls 5
	set label 2 'accounting size '.size_label(accounting) at accounting, \
		graph 0.5 offset 0.5, 0 left
}
plot 'bs.dat' using 2:($4 / 2.0**20) axes x1y1 with linespoints ls 1 \
	title 'bandwidth', \
     'bs.dat' using 2:3 axes x1y2 with linespoints ls 6 title 'IOPS'
