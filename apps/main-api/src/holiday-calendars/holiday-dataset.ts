import Holidays from 'date-holidays';

/** One public holiday as the dataset has it for a year. */
export interface DatasetHoliday {
  date: string;
  name: string;
  /** null: the whole day; 4: a holiday the dataset starts after midnight (Christmas Eve from 14:00). */
  hoursOff: number | null;
}

const countries = new Holidays().getCountries('en');

/**
 * The public holidays of the `date-holidays` package (countries and regions from its maintained
 * data, CC-BY 3.0): the dataset a calendar's import reads. Names in English where the data has
 * them. Only `public` holidays: observances and bank-only days are not days off.
 */
export const holidayDataset = {
  hasCountry(country: string): boolean {
    return country in countries;
  },

  hasRegion(country: string, region: string): boolean {
    return region in (new Holidays().getStates(country, 'en') ?? {});
  },

  publicHolidays(country: string, region: string | null, year: number): DatasetHoliday[] {
    const dataset = region ? new Holidays(country, region) : new Holidays(country);
    const byDate = new Map<string, DatasetHoliday>();
    for (const holiday of dataset.getHolidays(year, 'en')) {
      if (holiday.type !== 'public') {
        continue;
      }
      const [date = '', time = '00:00:00'] = holiday.date.split(' ');
      const known = byDate.get(date);
      if (known) {
        // Two holidays on one day are one day off, under both names.
        known.name = `${known.name} / ${holiday.name}`;
        continue;
      }
      byDate.set(date, { date, name: holiday.name, hoursOff: time === '00:00:00' ? null : 4 });
    }
    return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
  },
};
