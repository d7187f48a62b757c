#!/usr/bin/env node
import { Builtins } from 'clipanion';
import { RunCommand } from './run.js';
import { KeysGenerateCommand } from './keys.js';
import { ReplayCommand } from './replay.js';
import { VersionCommand } from './version.js';
import { ExportCommand, ImportCommand } from './state.js';
import { SuperviseCommand } from './supervise.js';
import { LoadTestCommand } from './loadtest.js';
import { BridgeAttestCommand } from './bridge.js';
import { NodeCli } from './help.js';
import { colorDepth } from './help-format.js';
import { NODE_VERSION } from '../version.js';

// enableColors, not only the context's colorDepth: clipanion's help formatting reads its own default otherwise.
const colors = colorDepth() > 1;
const cli = new NodeCli({ binaryLabel: 'ntv-node', binaryName: 'ntv-node', binaryVersion: NODE_VERSION, enableColors: colors });
cli.register(RunCommand);
cli.register(KeysGenerateCommand);
cli.register(ReplayCommand);
cli.register(VersionCommand);
cli.register(ExportCommand);
cli.register(ImportCommand);
cli.register(SuperviseCommand);
cli.register(LoadTestCommand);
cli.register(BridgeAttestCommand);
cli.register(Builtins.HelpCommand);
cli.register(Builtins.VersionCommand);
void cli.runExit(process.argv.slice(2), { colorDepth: colors ? colorDepth() : 1 });
