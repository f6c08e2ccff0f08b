// `tooldex doctor`: whether this host can run sandboxes and which runtimes work inside one (local, no server).
// Exit 0 when isolation works, 1 when it does not; json/toon when piped or asked, a table on a terminal.
import { Option, type Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { diagnose, type DoctorReport } from '../../sandbox/doctor.ts';
import { OUTPUT_FORMATS, outputFormat, type OutputFormat } from '../options.ts';
import { writeResult, type Style } from '../output.ts';
import { EXIT } from '../run.ts';

function renderDoctor(report: DoctorReport, style: Style): string {
  const lines = [style.bold('isolation')];
  const iso = report.isolation;
  lines.push(`  ${iso.ok ? style.green('ok') : style.red('broken')}  bubblewrap (${iso.bwrap}), user/pid/mount/net namespaces, slirp4netns, sandbox uid ${iso.sandboxUid}`);
  lines.push(`  cgroups: ${iso.cgroups.length ? iso.cgroups.join(', ') : style.yellow('none (rlimits only)')}`);
  if (iso.problem) lines.push(`  ${style.red(iso.problem)}`);
  lines.push('', style.bold('runtimes'));
  for (const runtime of report.runtimes) {
    const mark = runtime.inSandbox === 'ok' ? style.green('ok    ') : runtime.available ? style.red('failed') : style.yellow('absent');
    lines.push(`  ${mark}  ${runtime.runtime.padEnd(7)} ${runtime.version ?? ''}${runtime.detail && runtime.inSandbox !== 'ok' ? style.dim(`  (${runtime.detail})`) : ''}`);
  }
  lines.push('', style.bold('build tools') + style.dim('  (what package build scripts call inside a sandbox: the host\'s /usr)'));
  for (const tool of report.buildTools) {
    lines.push(`  ${tool.found ? style.green('ok    ') : style.yellow('absent')}  ${tool.name.padEnd(10)} ${tool.found ?? style.dim(tool.usedBy)}`);
  }
  return lines.join('\n');
}

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('Check that this host can run sandboxes and which runtimes work inside one')
    .addOption(new Option('-f, --format <format>', 'output format (default: human on a terminal, json when piped)').choices(OUTPUT_FORMATS))
    .option('--json', 'same as --format json')
    .addHelpText('after', '\nExamples:\n  sudo tooldex doctor\n  tooldex doctor --json | jq .runtimes\n\nExit status: 0 sandboxes work, 1 they do not.\n')
    .action(async (flags: { format?: OutputFormat; json?: boolean }) => {
      const report = await diagnose(loadConfig());
      writeResult(report, outputFormat(flags), renderDoctor);
      process.exitCode = report.isolation.ok ? EXIT.ok : EXIT.notOk;
    });
}
