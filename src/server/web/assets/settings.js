// Settings: the copy button beside a newly created key.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const text = document.getElementById(button.dataset.copy)?.textContent ?? '';
    const status = document.getElementById('copy-status');
    try {
      await navigator.clipboard.writeText(text);
      if (status) status.textContent = 'Copied to the clipboard.';
    } catch {
      // No clipboard permission (or an insecure context): select the text for a manual copy.
      const range = document.createRange();
      range.selectNodeContents(document.getElementById(button.dataset.copy));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      if (status) status.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
    }
  });
}
