# tierprobe: IOPS per interval of the sustained run, with the burst and
# baseline segments found (dashed) and where the bucket ran dry.
set xlabel 'time since the start (seconds)'
set ylabel 'IOPS (per interval)'
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set format y '%.0f'
set key top right box opaque
if (burst) {
	set arrow 1 from burst_end, graph 0 to burst_end, graph 1 nohead ls 5
	set label 1 sprintf('bucket empty at %.0f s', burst_end) at burst_end, \
		graph 0.9 offset 0.5, 0 left
	plot 'timeline.dat' using 1:2 with lines ls 1 title 'IOPS measured', \
	     'segments.dat' using 1:2 with lines lc rgb '#c0392b' lw 3 dt 2 \
		title 'burst, then baseline'
} else {
	plot 'timeline.dat' using 1:2 with lines ls 1 title 'IOPS measured'
}
