import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Makes a file (0600) or a folder and everything under it (0700 / 0600) readable by the portal's own user only: the
 * database holds the licence-signing key, every licence key and every password hash. The server itself runs with
 * umask 077; the commands that write data files without it (restore, seed:demo) call this on what they write.
 */
export function ownerOnly(path: string) {
	if (!existsSync(path)) return
	if (statSync(path).isDirectory()) {
		chmodSync(path, 0o700)
		for (const name of readdirSync(path)) ownerOnly(join(path, name))
	} else chmodSync(path, 0o600)
}

/** A SQLite database file and its -wal, -shm and -journal companions, owner-only. */
export function databaseOwnerOnly(path: string) {
	for (const suffix of ['', '-wal', '-shm', '-journal']) ownerOnly(path + suffix)
}
