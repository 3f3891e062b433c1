import { readFileSync } from 'node:fs'

/** CPU seconds a process (all its threads) has used so far; null where /proc is not there. */
export function cpuSeconds(pid: number): number | null {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
		return (Number(fields[11]) + Number(fields[12])) / 100
	} catch {
		return null
	}
}
