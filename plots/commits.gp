# tierprobe: commit latency per method and size at one writer (left), and
# commits per second and p99 latency against the number of writers with
# the fastest method (right), in logs of their own and in one shared log.
set multiplot layout 1, 2
set style fill solid 0.6 border -1
set boxwidth 0.35
set logscale y 10
set ylabel 'commit latency (microseconds, log scale)'
set xlabel 'method and size, one writer'
set xtics rotate by 45 right noenhanced
set key above horizontal box opaque
set grid ytics
plot 'methods.dat' using ($0 - 0.2):3:xtic(1) with boxes ls 3 title 'p50', \
     'methods.dat' using ($0 + 0.2):4 with boxes ls 2 title 'p99'
unset logscale y
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
