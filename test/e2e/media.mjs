// Which e2e screenshots become the repository's images (README, docs, walkthrough). The e2e suite
// produces them; `SPANPROOF_E2E_UPDATE_MEDIA=1 npm run test:e2e` copies each one that the run took to its
// place (scenarios that did not run leave their images as they are).
export const MEDIA = [
  // README / docs/vscode.md
  ['10-test-explorer.png', 'media/screenshots/test-explorer.png'],
  ['10-status-bar-verdict.png', 'media/screenshots/status-bar-verdict.png'],
  ['11-test-failure-at-evidence.png', 'media/screenshots/test-failure-at-evidence.png'],
  ['11-codelens.png', 'media/screenshots/codelens.png'],
  ['12-schema-squiggle.png', 'media/screenshots/schema-squiggle.png'],
  ['13-walkthrough.png', 'media/screenshots/walkthrough.png'],
  // The walkthrough's step images (contributes.walkthroughs)
  ['1-walkthrough-open-folder.jpg', 'media/walkthrough/open-folder.jpg'],
  ['1-walkthrough-select-quote.jpg', 'media/walkthrough/select-quote.jpg'],
  ['1-walkthrough-new-question.jpg', 'media/walkthrough/new-question.jpg'],
  ['2-walkthrough-run-evaluation.jpg', 'media/walkthrough/run-evaluation.jpg'],
  ['2-walkthrough-read-verdict.jpg', 'media/walkthrough/read-verdict.jpg'],
  ['7-walkthrough-import.jpg', 'media/walkthrough/import-dataset.jpg'],
];
