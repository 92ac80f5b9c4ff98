# bash completion for tierprobe(1).
# The options of each command are read from `tierprobe COMMAND --help`, so
# they follow the program; values of the options that take a fixed set are
# listed here.

_tierprobe()
{
	local cur prev words cword cmd opts
	_init_completion 2>/dev/null || {
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD-1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	}
	local commands="run scan limits sync report compare plot prep profiles
	    check fleet ebs-stats"

	if [ "$cword" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
		return
	fi
	cmd=${words[1]}

	case $prev in
	--output-format)
		COMPREPLY=($(compgen -W "text json markdown csv" -- "$cur"))
		return ;;
	--format)
		COMPREPLY=($(compgen -W "png svg" -- "$cur"))
		return ;;
	--engine)
		COMPREPLY=($(compgen -W "io_uring psync" -- "$cur"))
		return ;;
	--rw)
		COMPREPLY=($(compgen -W "read write" -- "$cur"))
		return ;;
	--methods)
		COMPREPLY=($(compgen -W "all fdatasync fsync dsync direct-dsync
		    uring-datasync" -- "$cur"))
		return ;;
	--outdir|-o|--mountpoint)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--json|--fio-job|--io-properties)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--show)
		# Volumes, instances and types: every name listed.
		COMPREPLY=($(compgen -W "$(tierprobe profiles 2>/dev/null |
		    awk '$1 ~ /^[a-z0-9]/ { print $1 }')" -- "$cur"))
		return ;;
	--expect-profile)
		# Volumes only: the names before the first blank line.
		COMPREPLY=($(compgen -W "$(tierprobe profiles 2>/dev/null |
		    awk 'NF == 0 { exit } $1 ~ /^[a-z0-9]/ { print $1 }')" \
		    -- "$cur"))
		return ;;
	--type)
		# The volume types: the names after the second blank line.
		COMPREPLY=($(compgen -W "$(tierprobe profiles 2>/dev/null |
		    awk 'NF == 0 { i++; next }
		    i == 2 && $1 ~ /^[a-z0-9]/ { print $1 }')" -- "$cur"))
		return ;;
	--bs|--iodepth|--seed|--repeat|--min-ws|--max-ws|--step|--points|\
	--precision|--max-time|--budget|--ws|--max-iodepth|--sustain|\
	--sustain-together|--size|--expect|--host|--kind|--outlier|--writers)
		return ;;
	esac

	if [[ $cur == -* ]]; then
		opts=$(tierprobe "$cmd" --help 2>/dev/null |
		    grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	case $cmd in
	report|compare|plot|check|fleet)
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") \
		    $(compgen -d -- "$cur")) ;;
	ebs-stats)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	run|scan|limits|sync|prep)
		if [[ $cur == sim:*@* ]]; then
			# An instance: the names after the volumes' list.
			COMPREPLY=($(compgen -W "$(tierprobe profiles 2>/dev/null |
			    awk -v v="${cur%@*}" 'NF == 0 { i++; next }
			    i == 1 && $1 ~ /^[a-z0-9]/ { print v "@" $1 }')" \
			    -- "$cur"))
		elif [[ $cur == sim:* ]]; then
			COMPREPLY=($(compgen -W "$(tierprobe profiles 2>/dev/null |
			    awk 'NF == 0 { exit }
			    $1 ~ /^[a-z0-9]/ { print "sim:" $1 }')" \
			    -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi ;;
	esac
}
complete -F _tierprobe tierprobe
