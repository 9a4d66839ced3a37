import { matchReadCommand } from './read-path.ts';
import { CLI_VERSION } from './version.ts';

/*
 * The entry of the bundle: as little as can be, for every command pays for it. `forge --version`
 * is answered here, the way commander answers it; the plain forms of the read commands run without
 * commander (read-path.ts); anything else loads the program (cli.ts).
 */

// `forge … | head` closes stdout early; that is not an error worth a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0); // EXIT.ok (output.ts is not loaded for --version)
  throw err;
});

const args = process.argv.slice(2);
const read = matchReadCommand(args);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  process.stdout.write(`${CLI_VERSION}\n`);
} else if (read) {
  const { runRead } = await import('./read.ts');
  process.exitCode = await runRead(read);
} else {
  const { main } = await import('./cli.ts');
  process.exitCode = await main(process.argv);
}
