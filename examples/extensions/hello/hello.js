/* global document, location */
// Plain script, no build step: extensions are static files.
const button = document.getElementById('count');
let clicks = 0;
button.addEventListener('click', () => {
  clicks += 1;
  button.textContent = `Clicked ${clicks} time${clicks === 1 ? '' : 's'}`;
});
document.getElementById('origin').textContent = `Served from ${location.origin}`;
