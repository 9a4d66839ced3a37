/**
 * The five quick templates of the Description Pad (docs/product.md#other-screens): skeletons that make a
 * description complete enough for the brain or Forge to act on. Each fills the text area; the user edits it.
 */
export interface DescriptionTemplate {
  id: string;
  label: string;
  text: string;
}

export const DESCRIPTION_TEMPLATES: readonly DescriptionTemplate[] = [
  {
    id: 'feature',
    label: 'Feature',
    text: `Feature: 

Goal (what changes for the user):

Who uses it:

Behaviour:
- 

Acceptance criteria:
- [ ] 
- [ ] 

Out of scope:
`,
  },
  {
    id: 'bug',
    label: 'Bug report',
    text: `Bug: 

Steps to reproduce:
1. 
2. 

Expected:

Actual (error text, screenshot, log line):

Where (page, file, command):

Since when / last version that worked:
`,
  },
  {
    id: 'api',
    label: 'API endpoint',
    text: `Endpoint: POST /api/

Purpose:

Request body (fields, types, required):
- 

Response (status and shape):

Errors (status, code, when):
- 400 
- 404 

Who may call it:
`,
  },
  {
    id: 'screen',
    label: 'UI screen',
    text: `Screen: 
Route: /

Who opens it and why:

Layout (top to bottom):
- 

Data it shows and where it comes from:

States: loading / empty / error / success

Actions (button → what happens):
- 
`,
  },
  {
    id: 'refactor',
    label: 'Refactor',
    text: `Refactor: 

Code involved (files, modules):

Why now (what hurts today):

Target shape:

Must not change (behaviour, public API):

How to verify (tests, checks):
`,
  },
];
