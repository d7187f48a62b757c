#!/usr/bin/env node
import { Builtins, Cli } from 'clipanion';
import { RunCommand } from './run.js';
import { KeysGenerateCommand } from './keys.js';
import { NODE_VERSION } from '../version.js';

const cli = new Cli({ binaryLabel: 'ntv-node', binaryName: 'ntv-node', binaryVersion: NODE_VERSION });
cli.register(RunCommand);
cli.register(KeysGenerateCommand);
cli.register(Builtins.HelpCommand);
cli.register(Builtins.VersionCommand);
void cli.runExit(process.argv.slice(2));
