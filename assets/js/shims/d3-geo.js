// Stand-in for d3-geo in js/vega-runtime.js: wirespeed's charts draw no maps, so the geographic
// projections and functions Vega registers are left out; using one fails loudly (the chart stays static).
function none() { throw new Error('wirespeed: geographic functions are not in this Vega runtime'); }
export const geoArea = none, geoBounds = none, geoCentroid = none, geoGraticule = none, geoPath = none,
  geoTransverseMercator = none, geoStereographic = none, geoOrthographic = none, geoNaturalEarth1 = none, geoMercator = none,
  geoIdentity = none, geoGnomonic = none, geoEquirectangular = none, geoEqualEarth = none, geoConicEquidistant = none,
  geoConicEqualArea = none, geoConicConformal = none, geoAzimuthalEquidistant = none, geoAzimuthalEqualArea = none,
  geoAlbersUsa = none, geoAlbers = none;
