/*
 * The payment component for merchant pages:
 *   <script src="https://<service>/component.js"></script>
 *   var handle = PaymentComponent.mount('#pay-here', { sessionId: '…', locale: 'de-DE', theme: 'light' });
 *   handle.unmount();
 * It frames the service's hosted page, so card data never touches the merchant page. The page posts
 * payment-component:complete | :cancel | :error to this window; on complete and cancel the shopper is
 * sent to the session's CompleteUrl or CancelUrl, unless the merchant passed onComplete / onCancel.
 * Plain ES5, one global.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var origin = script ? new URL(script.src, window.location.href).origin : window.location.origin;

  function element(target) {
    var found = typeof target === 'string' ? document.querySelector(target) : target;
    if (!found) throw new Error('PaymentComponent.mount: no element matches ' + target);
    return found;
  }

  function mount(target, options) {
    options = options || {};
    if (!options.sessionId) throw new Error('PaymentComponent.mount: options.sessionId is required');
    var container = element(target);
    var query = [];
    if (options.locale) query.push('locale=' + encodeURIComponent(options.locale));
    if (options.theme) query.push('theme=' + encodeURIComponent(options.theme));
    var frame = document.createElement('iframe');
    frame.src = origin + '/pay/' + encodeURIComponent(options.sessionId) + (query.length ? '?' + query.join('&') : '');
    frame.title = 'Payment';
    frame.setAttribute('allow', 'payment');
    frame.style.cssText = 'display:block;width:100%;min-height:560px;border:0;color-scheme:normal';
    container.appendChild(frame);

    function onMessage(event) {
      if (event.origin !== origin || event.source !== frame.contentWindow) return;
      var data = event.data || {};
      if (typeof data.type !== 'string' || data.type.indexOf('payment-component:') !== 0) return;
      if (data.type === 'payment-component:resize') {
        frame.style.height = Math.max(360, Number(data.height) || 0) + 'px';
        return;
      }
      var name = data.type.slice('payment-component:'.length);
      var handler = options['on' + name.charAt(0).toUpperCase() + name.slice(1)];
      if (typeof handler === 'function') handler(data);
      else if ((name === 'complete' || name === 'cancel') && data.url) window.location.href = data.url;
    }
    window.addEventListener('message', onMessage);

    return {
      element: frame,
      unmount: function () {
        window.removeEventListener('message', onMessage);
        if (frame.parentNode) frame.parentNode.removeChild(frame);
      },
    };
  }

  window.PaymentComponent = { mount: mount };
})();
