# tierprobe: settings every plot shares.  vars.gp (written by tierprobe)
# sets fmt, outfile, plot_title and plot_subtitle (and may set
# plot_height) before this runs.
if (!exists('plot_height')) plot_height = 800
if (fmt eq 'svg') {
	set terminal svg size 1200,plot_height font 'sans,14' \
		background rgb 'white'
} else {
	set terminal pngcairo size 1200,plot_height font 'sans,12' \
		background rgb 'white'
}
set output outfile
set encoding utf8
set title plot_title . "\n" . plot_subtitle noenhanced
set grid xtics ytics mxtics mytics lc rgb '#e0e0e0' lw 1
set border lw 1.2
set key top left box opaque
set datafile missing 'nan'
set style line 1 lc rgb '#1f5fa8' lw 2.5 pt 7 ps 1.3
set style line 2 lc rgb '#c0392b' lw 2.5 pt 5 ps 1.3
set style line 3 lc rgb '#2e8b57' lw 2.5 pt 9 ps 1.3
set style line 4 lc rgb '#8e44ad' lw 2.5 pt 11 ps 1.3
set style line 5 lc rgb '#7f7f7f' lw 2 dt 2
set style line 6 lc rgb '#e67e22' lw 2.5 pt 13 ps 1.3
# Binary size tics: 64M, 1G, ... on a log2 axis of bytes.
size_label(x) = x >= 2**40 ? sprintf('%g TiB', x / 2.0**40) : \
	x >= 2**30 ? sprintf('%g GiB', x / 2.0**30) : \
	x >= 2**20 ? sprintf('%g MiB', x / 2.0**20) : \
	x >= 2**10 ? sprintf('%g KiB', x / 2.0**10) : sprintf('%g B', x)
