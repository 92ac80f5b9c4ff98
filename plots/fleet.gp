# tierprobe: a fleet, one panel per figure and one bar per volume; red bars
# are outliers on that figure, named above the bar when the name fits,
# black dashes the median
# of the volume's kind.  vars.gp sets npanels, nvol, xrot (degrees to turn
# the bar labels so they do not overlap; at 90 each stands under its bar),
# name_across (a red bar's name fits above it, and is written there),
# ptitle[], punit[] and pflagged[] (red bars in the panel: a labels plot
# with no point made gnuplot 5.4 crash); data in fleetN.dat.
unset title
set multiplot layout (npanels + 1) / 2, (npanels > 1 ? 2 : 1) \
	title plot_title . "\n" . plot_subtitle noenhanced
set style fill solid 0.8 border -1
set boxwidth 0.7
set yrange [0:*]
set xrange [-0.6:nvol - 0.4]
set offsets 0, 0, graph 0.15, 0
if (xrot > 0) {
	set xtics nomirror noenhanced font ',9' rotate by xrot right
} else {
	set xtics nomirror noenhanced font ',9'
}
set ytics nomirror
set key off
set grid noxtics ytics
do for [i = 1:npanels] {
	set title ptitle[i] noenhanced
	set ylabel punit[i]
	f = sprintf('fleet%d.dat', i)
	if (name_across && pflagged[i] > 0) {
		plot f using 1:3:($4 > 0 ? 0xc0392b : 0x1f5fa8):xtic(2) \
			with boxes lc rgb variable, \
		     f using ($1 - 0.4):5:(0.8):(0) with vectors nohead lw 3 \
			lc rgb 'black', \
		     f using 1:($4 > 0 ? $3 : NaN):2 with labels \
			offset 0,0.7 font ',9' tc rgb '#c0392b' noenhanced
	} else {
		plot f using 1:3:($4 > 0 ? 0xc0392b : 0x1f5fa8):xtic(2) \
			with boxes lc rgb variable, \
		     f using ($1 - 0.4):5:(0.8):(0) with vectors nohead lw 3 \
			lc rgb 'black'
	}
}
unset multiplot
