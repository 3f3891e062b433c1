import { readFileSync, readdirSync } from 'node:fs'

/** CPU seconds a process (all its threads) has used so far; null where /proc is not there. */
export function cpuSeconds(pid: number): number | null {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
		return (Number(fields[11]) + Number(fields[12])) / 100
	} catch {
		return null
	}
}

/** The ids of this machine's PostgreSQL processes (the server and its backends), from /proc; none where it is not there. */
export function postgresPids(): number[] {
	let entries: string[]
	try {
		entries = readdirSync('/proc')
	} catch {
		return []
	}
	return entries
		.filter((entry) => {
			if (!/^\d+$/.test(entry)) return false
			try {
				return readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('postgres')
			} catch {
				return false
			}
		})
		.map(Number)
}

/** CPU seconds used so far by each of `pids` (a process gone or not there counts 0). */
export function cpuOf(pids: number[]): Map<number, number> {
	return new Map(pids.map((pid) => [pid, cpuSeconds(pid) ?? 0]))
}

/** Cores used between two readings of cpuOf, over `seconds`: a process that started in between counts from 0. */
export function coresUsed(before: Map<number, number>, after: Map<number, number>, seconds: number): number {
	let used = 0
	for (const [pid, cpu] of after) used += cpu - (before.get(pid) ?? 0)
	return used / seconds
}
