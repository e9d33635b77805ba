/*
 * The hosted payment page's script (no inline script: the page's CSP allows only this file).
 * It checks the card in the page (scheme, Luhn, expiry, security code: the server checks again),
 * submits once, and tells the merchant page (the component) what happened.
 */
(function () {
  'use strict';
  var root = document.getElementById('payment');
  if (!root) return;
  var framed = window.parent !== window;

  /** To the merchant page through the component, or straight there when the page is not framed. */
  function notify(type, details) {
    var message = { type: 'payment-component:' + type, sessionId: root.dataset.sessionId || null };
    for (var key in details) message[key] = details[key];
    if (framed) window.parent.postMessage(message, '*');
    else if (details && details.url && (type === 'complete' || type === 'cancel')) window.location.href = details.url;
  }

  function reportHeight() {
    if (framed) window.parent.postMessage({ type: 'payment-component:resize', height: document.documentElement.scrollHeight }, '*');
  }
  window.addEventListener('load', reportHeight);

  // After a 3-D Secure or redirect step: go on (complete), back to the form (retry), or to Return (checkout).
  var outcome = root.dataset.outcome;
  if (outcome === 'complete') return notify('complete', { url: root.dataset.url });
  if (outcome === 'error') return notify('error', { message: document.title });
  if (outcome === 'retry') return;
  if (outcome === 'return') {
    window.location.href = root.dataset.url;
    return;
  }

  var form = document.getElementById('payment-form');
  if (!form) return;
  var fields = {
    name: document.getElementById('card-name'),
    number: document.getElementById('card-number'),
    expiry: document.getElementById('card-expiry'),
    cvc: document.getElementById('card-cvc'),
  };
  var cardFields = document.getElementById('card-fields');
  var brandHint = document.getElementById('card-number-brand');
  var formMessage = document.getElementById('form-message');
  var payButton = document.getElementById('pay');
  var submitting = false;

  // Scheme by issuer prefix, enough to check the length and the code; the server decides finally.
  var SCHEMES = [
    { name: 'American Express', pattern: /^3[47]/, lengths: [15], code: 4 },
    { name: 'Visa', pattern: /^4/, lengths: [13, 16, 19], code: 3 },
    { name: 'Mastercard', pattern: /^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/, lengths: [16], code: 3 },
    { name: 'Discover', pattern: /^(6011|65|64[4-9])/, lengths: [16, 19], code: 3 },
    { name: 'JCB', pattern: /^35(2[89]|[3-8])/, lengths: [16, 17, 18, 19], code: 3 },
    { name: 'Diners Club', pattern: /^3(0[0-5]|[689])/, lengths: [14, 16, 19], code: 3 },
    { name: 'Maestro', pattern: /^(5[06-9]|6)/, lengths: [12, 13, 14, 15, 16, 17, 18, 19], code: 3 },
  ];
  function digits(value) { return value.replace(/[\s-]/g, ''); }
  function scheme(number) {
    for (var i = 0; i < SCHEMES.length; i++) if (SCHEMES[i].pattern.test(number)) return SCHEMES[i];
    return null;
  }
  function luhn(number) {
    var sum = 0;
    for (var i = 0; i < number.length; i++) {
      var digit = Number(number[number.length - 1 - i]);
      if (i % 2 === 1) { digit *= 2; if (digit > 9) digit -= 9; }
      sum += digit;
    }
    return sum % 10 === 0;
  }
  function selectedMethod() {
    var checked = form.querySelector('input[name="method"]:checked');
    return checked ? checked.value : '';
  }

  function setError(input, message) {
    var box = document.getElementById(input.id + '-error');
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
    if (box) box.textContent = message || '';
  }
  function clearErrors() {
    for (var key in fields) setError(fields[key], '');
    document.getElementById('method-error').textContent = '';
    formMessage.textContent = '';
  }

  /** The card checks, each with a message a screen reader reads next to its field. */
  function checkCard() {
    var errors = [];
    var number = digits(fields.number.value);
    var found = scheme(number);
    if (!fields.name.value.trim()) errors.push([fields.name, 'Enter the name shown on the card.']);
    if (!/^\d{12,19}$/.test(number) || !luhn(number) || (found && found.lengths.indexOf(number.length) < 0)) {
      errors.push([fields.number, 'Enter a valid card number.']);
    }
    var expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(fields.expiry.value);
    if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) errors.push([fields.expiry, 'Enter the expiry date as MM/YY.']);
    else {
      var year = Number(expiry[2]) < 100 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
      var now = new Date();
      if (year < now.getFullYear() || (year === now.getFullYear() && Number(expiry[1]) < now.getMonth() + 1)) errors.push([fields.expiry, 'This card has expired.']);
    }
    var codeLength = found ? found.code : 3;
    if (!new RegExp('^\\d{' + codeLength + '}$').test(fields.cvc.value.trim())) {
      errors.push([fields.cvc, 'Enter the ' + codeLength + '-digit security code.']);
    }
    return errors;
  }

  function cardPayload() {
    var expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(fields.expiry.value);
    var year = Number(expiry[2]);
    return {
      Name: fields.name.value.trim(),
      Number: digits(fields.number.value),
      VerificationCode: fields.cvc.value.trim(),
      Expiry: { Month: Number(expiry[1]), Year: year < 100 ? 2000 + year : year },
    };
  }

  function showCardFields() {
    cardFields.hidden = selectedMethod() !== 'CARD';
    reportHeight();
  }
  form.addEventListener('change', function (event) {
    if (event.target.name === 'method') showCardFields();
  });
  showCardFields();

  fields.number.addEventListener('input', function () {
    var found = scheme(digits(fields.number.value));
    brandHint.textContent = found ? found.name : '';
  });

  /** The server's FieldErrors (Name, Number, Expiry, VerificationCode, PaymentMethod) next to their fields. */
  var SERVER_FIELDS = { Name: 'name', Number: 'number', Expiry: 'expiry', VerificationCode: 'cvc' };
  function showServerErrors(body) {
    var errors = body.FieldErrors || [];
    var first = null;
    errors.forEach(function (error) {
      var input = fields[SERVER_FIELDS[error.Field]];
      if (input) { setError(input, error.Message); first = first || input; }
      else document.getElementById('method-error').textContent = error.Message;
    });
    if (!errors.length) formMessage.textContent = body.Message || 'The payment could not be taken.';
    if (first) first.focus();
  }

  function finishWith(body) {
    if (body.Outcome === 'REDIRECTED') {
      window.location.href = body.RedirectUrl;
      return;
    }
    if (body.Outcome === 'COMPLETED' && body.BankDetails) {
      var result = document.getElementById('result');
      var rows = '';
      for (var key in body.BankDetails) {
        rows += '<dt></dt><dd></dd>';
      }
      result.innerHTML = '<h2 id="bank-title">Bank transfer details</h2><p>Transfer the total to this account, quoting the payment reference. Your order is confirmed when the money arrives.</p><dl>' + rows + '</dl><button type="button" id="continue">Continue</button>';
      var terms = result.querySelectorAll('dt');
      var values = result.querySelectorAll('dd');
      var i = 0;
      for (var name in body.BankDetails) {
        terms[i].textContent = name.replace(/([a-z])([A-Z])/g, '$1 $2');
        values[i].textContent = body.BankDetails[name];
        i++;
      }
      form.hidden = true;
      result.hidden = false;
      document.getElementById('continue').addEventListener('click', function () { notify('complete', { url: body.CompleteUrl, orderId: body.OrderId }); });
      document.getElementById('continue').focus();
      reportHeight();
      return;
    }
    if (body.Outcome === 'COMPLETED') {
      payButton.textContent = 'Paid';
      notify('complete', { url: body.CompleteUrl, orderId: body.OrderId });
    }
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (submitting) return; // a double click pays once (and the server refuses a second payment anyway)
    clearErrors();
    var method = selectedMethod();
    if (!method) {
      document.getElementById('method-error').textContent = 'Choose a payment method.';
      return;
    }
    var payload = { PaymentMethod: method };
    if (method === 'CARD') {
      var errors = checkCard();
      if (errors.length) {
        errors.forEach(function (error) { setError(error[0], error[1]); });
        errors[0][0].focus();
        return;
      }
      payload.Card = cardPayload();
    }
    submitting = true;
    payButton.disabled = true;
    payButton.setAttribute('aria-busy', 'true');
    fetch('/pay/' + encodeURIComponent(root.dataset.sessionId), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(payload),
      credentials: 'omit',
    })
      .then(function (response) { return response.json().then(function (body) { return { status: response.status, body: body }; }); })
      .then(function (answer) {
        var body = answer.body || {};
        if (answer.status === 200 && body.Outcome !== 'DECLINED') return finishWith(body);
        submitting = false;
        payButton.disabled = false;
        payButton.removeAttribute('aria-busy');
        if (body.Outcome === 'DECLINED') {
          formMessage.textContent = body.Message;
          if (!body.CanRetry) {
            form.querySelectorAll('input, button[type="submit"]').forEach(function (control) { control.disabled = true; });
            notify('error', { message: body.Message });
          }
          return;
        }
        if (answer.status === 409) {
          formMessage.textContent = body.Message;
          payButton.disabled = true;
          return;
        }
        showServerErrors(body);
      })
      .catch(function () {
        submitting = false;
        payButton.disabled = false;
        payButton.removeAttribute('aria-busy');
        formMessage.textContent = 'The connection failed. Check your connection and try again: you were not charged twice.';
      })
      .then(reportHeight);
  });

  document.getElementById('cancel').addEventListener('click', function () {
    notify('cancel', { url: root.dataset.cancelUrl });
  });
})();
