// The site's 404 page: an old address of a download that moved leads to where it lives now.
// Captures are published gzip-compressed (<name>.pcap.gz, which Wireshark and tshark open as they are) since
// issue 24; a link to the uncompressed file (results/<slug>/data/…/<name>.pcap, .pcapng or .erf) is sent on to it.
(function () {
  'use strict';
  var path = window.location.pathname;
  if (/\/results\/[^/]+\/data\/.+\.(pcap|pcapng|erf)$/i.test(path)) {
    window.location.replace(path + '.gz');
  }
})();
