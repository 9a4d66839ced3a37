/**
 * Monaco from the local monaco-editor package, never a CDN (the daemon's CSP allows only 'self'
 * scripts). Imported only by the lazily loaded editor, so none of this is in the first-load bundle.
 */
import * as monaco from 'monaco-editor';
import { loader } from '@monaco-editor/react';
// Vite bundles each worker as its own same-origin file (CSP: worker-src 'self' blob:).
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';
import CssWorker from 'monaco-editor/languages/features/css/css.worker?worker';
import HtmlWorker from 'monaco-editor/languages/features/html/html.worker?worker';
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    switch (label) {
      case 'json':
        return new JsonWorker();
      case 'css':
      case 'scss':
      case 'less':
        return new CssWorker();
      case 'html':
      case 'handlebars':
      case 'razor':
        return new HtmlWorker();
      case 'typescript':
      case 'javascript':
        return new TsWorker();
      default:
        return new EditorWorker();
    }
  },
};

// The editor sees one file at a time, without the project's node_modules: every import would be
// "Cannot find module". Keep syntax errors, drop the type errors that would only be noise.
const diagnostics = { noSemanticValidation: true, noSyntaxValidation: false, noSuggestionDiagnostics: true };
const compilerOptions: monaco.typescript.CompilerOptions = {
  target: monaco.typescript.ScriptTarget.ESNext,
  module: monaco.typescript.ModuleKind.ESNext,
  moduleResolution: monaco.typescript.ModuleResolutionKind.NodeJs,
  jsx: monaco.typescript.JsxEmit.ReactJSX,
  allowJs: true,
  allowNonTsExtensions: true,
  esModuleInterop: true,
};
for (const defaults of [monaco.typescript.typescriptDefaults, monaco.typescript.javascriptDefaults]) {
  defaults.setDiagnosticsOptions(diagnostics);
  defaults.setCompilerOptions(compilerOptions);
}

// @monaco-editor/react uses this instance instead of fetching Monaco's AMD loader from a CDN.
loader.config({ monaco });

export { monaco };
