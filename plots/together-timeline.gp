# tierprobe: several targets driven together, IOPS per interval: the sum
# (thick) and each target, with the burst and baseline of a bucket that
# ran dry on the sum (dashed) and when it did.
set xlabel 'time since the start of the run together (seconds)'
set ylabel 'IOPS (per interval)'
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set format y '%.0f'
set key top right box opaque
if (burst) {
	set arrow 1 from burst_end, graph 0 to burst_end, graph 1 nohead ls 5
	set label 1 sprintf('%s bucket empty at %.0f s', \
		shared ? 'shared' : 'a', burst_end) at burst_end, graph 0.55 \
		offset 0.5, 0 left
	plot 'together.dat' using 1:2 with lines ls 1 lw 3 title 'sum', \
	     for [i=1:ntargets] 'together.dat' using 1:(column(i + 2)) \
		with lines lw 1.5 title sprintf('target %d', i), \
	     'segments.dat' using 1:2 with lines lc rgb '#c0392b' lw 3 dt 2 \
		title 'burst, then baseline'
} else {
	plot 'together.dat' using 1:2 with lines ls 1 lw 3 title 'sum', \
	     for [i=1:ntargets] 'together.dat' using 1:(column(i + 2)) \
		with lines lw 1.5 title sprintf('target %d', i)
}
