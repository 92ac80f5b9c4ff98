# tierprobe: several targets, each alone and all together, side by side:
# IOPS (left) and bandwidth (right), per target and for the sum, with the
# shared limit when one binds.
set multiplot layout 1, 2 title plot_title . "\n" . plot_subtitle noenhanced
unset title
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set key top left box opaque
set xlabel 'target'
set ylabel 'IOPS'
set format y '%.0f'
if (shared_iops > 0) {
	set arrow 1 from graph 0, first shared_iops to graph 1, \
		first shared_iops nohead ls 5
	set label 1 'shared limit' at graph 0.02, first shared_iops \
		offset 0, 0.8 left
}
plot 'bars.dat' using 2:xtic(1) title 'alone' lc rgb '#1f5fa8', \
     '' using 3 title 'together' lc rgb '#e67e22'
unset arrow 1
unset label 1
set ylabel 'bandwidth (MiB/s)'
if (shared_bw > 0) {
	set arrow 2 from graph 0, first shared_bw / 2.0**20 to graph 1, \
		first shared_bw / 2.0**20 nohead ls 5
	set label 2 'shared limit' at graph 0.02, first shared_bw / 2.0**20 \
		offset 0, 0.8 left
}
plot 'bars.dat' using ($4 / 2.0**20):xtic(1) title 'alone' \
	lc rgb '#1f5fa8', '' using ($5 / 2.0**20) title 'together' \
	lc rgb '#e67e22'
unset multiplot
