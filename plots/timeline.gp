# tierprobe: IOPS per interval of the sustained run (after the sweeps, on
# their clock, when the report has them), with the burst and baseline
# segments found (dashed), a mark where the rate fell, and how long a full
# bucket lasts as a label apart: the sweeps spend credits before the run.
set xlabel xlabel_text
set ylabel 'IOPS (per interval)'
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set format y '%.0f'
set key top right box opaque
if (burst) {
	set arrow 1 from drop_t, graph 0 to drop_t, graph 1 nohead ls 5
	set label 1 drop_label at drop_t, graph 0.78 offset 0.5, 0 left front
}
if (strlen(bucket_label) > 0) {
	set label 2 bucket_label at graph 0.99, graph 0.05 right front
}
runs = "'timeline.dat' using 1:2 with lines ls 1 title 'sustained run'"
if (sweeps) {
	runs = "'sweeps.dat' using 1:2 with lines lc rgb '#9db8d6' lw 1.5 " . \
		"title 'sweeps', " . runs
}
if (burst) {
	runs = runs . ", 'segments.dat' using 1:2 with lines " . \
		"lc rgb '#c0392b' lw 3 dt 2 title 'burst, then baseline'"
}
eval 'plot ' . runs
