(() => { Almanac.register('elasund', {}); })();
