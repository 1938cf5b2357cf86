// Every page: a form is sent once. A second click while the first post is on its way (a slow
// network) would repeat it: create a second API key whose secret is never shown, or try a
// password twice against the limit. The button says it is working until the next page comes.
for (const form of document.querySelectorAll('form[method="post"]:not(#playground)')) {
  form.addEventListener('submit', (event) => {
    if (form.dataset.sending) {
      event.preventDefault();
      return;
    }
    form.dataset.sending = 'true';
    for (const button of form.querySelectorAll('button[type="submit"], button:not([type])')) button.setAttribute('aria-disabled', 'true');
  });
}

// Back to a page kept by the browser (back/forward cache): its forms can be sent again.
addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  for (const form of document.querySelectorAll('form[data-sending]')) {
    delete form.dataset.sending;
    for (const button of form.querySelectorAll('[aria-disabled="true"]')) button.removeAttribute('aria-disabled');
  }
});

// Notices of something just done ("Your password was changed") live in the address; once shown
// they leave it, so a reload or a return later does not announce them as new again.
const ONE_SHOT = ['welcome', 'changed', 'revoked', 'logged_out', 'expired'];
const here = new URL(location.href);
if (ONE_SHOT.some((name) => here.searchParams.has(name))) {
  for (const name of ONE_SHOT) here.searchParams.delete(name);
  history.replaceState(history.state, '', `${here.pathname}${here.search}${here.hash}`);
}

// Logging out forgets the playground's kept answers (see playground.js): the next person at this tab does not see them.
for (const form of document.querySelectorAll('form[action="/logout"]')) {
  form.addEventListener('submit', () => {
    try {
      for (const key of Object.keys(sessionStorage)) if (key.startsWith('svc.playground.')) sessionStorage.removeItem(key);
    } catch {}
  });
}
