# tierprobe: commit latency per method and size at one writer (left), and
# commits per second and p99 latency against the number of writers with
# the fastest method (right), in logs of their own and in one shared log.
set multiplot layout 1, 2
set style fill solid 0.6 border -1
set boxwidth 0.35
set logscale y 10
set ylabel 'commit latency (log scale)'
set xlabel 'method and size, one writer'
set xtics rotate by 45 right noenhanced
set key above horizontal box opaque
set grid ytics
# Every bar readable: from the power of ten below the lowest bar to the one
# above the highest, a tic at each of 1 to 9 times a power of ten (1, 2
# and 5 over more than two decades), labelled in us, ms or s.
lat_label(x) = x >= 1e6 ? sprintf('%g s', x / 1e6) : \
	x >= 1e3 ? sprintf('%g ms', x / 1e3) : sprintf('%g us', x)
if (lat_lo > 0 && lat_hi > 0) {
	k0 = floor(log10(lat_lo))
	k1 = ceil(log10(lat_hi))
	if (k1 <= k0) { k1 = k0 + 1 }
	set yrange [10.0**k0 * 0.999:10.0**k1 * 1.001]
	set ytics 10 format ''
	set ytics ()
	do for [k = k0:k1 - 1] {
		do for [d = 1:9] {
			if (k1 - k0 <= 2 || d == 1 || d == 2 || d == 5) {
				set ytics add (lat_label(d * 10.0**k) d * 10.0**k)
			}
		}
	}
	set ytics add (lat_label(10.0**k1) 10.0**k1)
	set mytics 1
}
plot 'methods.dat' using ($0 - 0.2):3:xtic(1) with boxes ls 3 title 'p50', \
     'methods.dat' using ($0 + 0.2):4 with boxes ls 2 title 'p99'
unset logscale y
set ytics auto format '% h'
set yrange [*:*]
unset xtics
set xtics
set logscale x 2
set xlabel 'writers (log scale)'
set ylabel 'commits per second'
set y2label 'p99 commit latency (microseconds)'
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
set format y '%.0f'
set key right box opaque
set title writers_title noenhanced
if (has_shared) {
	plot 'own.dat' using 1:2 axes x1y1 with linespoints ls 1 \
		title 'commits/s, own logs', \
	     'shared.dat' using 1:2 axes x1y1 with linespoints ls 4 \
		title 'commits/s, one shared log', \
	     'own.dat' using 1:3 axes x1y2 with linespoints ls 2 dt 2 \
		title 'p99, own logs', \
	     'shared.dat' using 1:3 axes x1y2 with linespoints ls 6 dt 2 \
		title 'p99, one shared log'
} else {
	plot 'own.dat' using 1:2 axes x1y1 with linespoints ls 1 \
		title 'commits/s', \
	     'own.dat' using 1:3 axes x1y2 with linespoints ls 2 dt 2 \
		title 'p99'
}
unset multiplot
