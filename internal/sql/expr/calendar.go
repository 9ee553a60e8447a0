package expr

import "github.com/strata-db/strata/internal/types"

// MySQL's calendar arithmetic (sql-common/my_time.cc): day numbers from
// year 0, weekdays and week numbers, ported so that WEEK, YEARWEEK,
// TO_DAYS, FROM_DAYS and the %U/%V/%X specifiers give MySQL's answers for
// every mode, including years before 1582 (MySQL's calendar is the
// proleptic Gregorian one with its own year-0 rules).

// Week behaviour bits of calcWeek.
const (
	weekMondayFirst  = 1
	weekYear         = 2
	weekFirstWeekday = 4
)

// maxDayNumber is the day number of 9999-12-31.
const maxDayNumber = 3652424

// calcDaynr is the day number of a date (0 for 0000-00-00).
func calcDaynr(year, month, day int) int64 {
	if year == 0 && month == 0 {
		return 0
	}
	y := int64(year)
	delsum := 365*y + 31*int64(month-1) + int64(day)
	if month <= 2 {
		y--
	} else {
		delsum -= int64(month*4+23) / 10
	}
	temp := ((y/100 + 1) * 3) / 4
	return delsum + y/4 - temp
}

// timeMicros is a valid date and time in microseconds from day 0 of the
// calendar: differences of them are TIMEDIFF's and TIMESTAMPDIFF's.
func timeMicros(t types.Time) int64 {
	dn := calcDaynr(int(t.Year), int(t.Month), int(t.Day))
	return (((dn*24+int64(t.Hour))*60+int64(t.Minute))*60+int64(t.Second))*1000000 + int64(t.Microsecond)
}

// daysInYear is 365 or 366.
func daysInYear(year int) int {
	if year&3 == 0 && (year%100 != 0 || (year%400 == 0 && year != 0)) {
		return 366
	}
	return 365
}

// calcWeekday is 0 = Monday .. 6 = Sunday, or 0 = Sunday .. 6 = Saturday
// when sundayFirst.
func calcWeekday(daynr int64, sundayFirst bool) int {
	s := int64(0)
	if sundayFirst {
		s = 1
	}
	return int((daynr + 5 + s) % 7)
}

// weekModeOf turns WEEK()'s mode argument into week behaviour bits.
func weekModeOf(mode int) int {
	f := mode & 7
	if f&weekMondayFirst == 0 {
		f ^= weekFirstWeekday
	}
	return f
}

// calcWeek is MySQL's calc_week: the week number of a date under the
// behaviour bits, and the year the week belongs to.
func calcWeek(year, month, day, behaviour int) (week, wyear int) {
	daynr := calcDaynr(year, month, day)
	firstDaynr := calcDaynr(year, 1, 1)
	mondayFirst := behaviour&weekMondayFirst != 0
	wYear := behaviour&weekYear != 0
	firstWeekday := behaviour&weekFirstWeekday != 0
	weekday := calcWeekday(firstDaynr, !mondayFirst)
	wyear = year
	if month == 1 && day <= 7-weekday {
		if !wYear && ((firstWeekday && weekday != 0) || (!firstWeekday && weekday >= 4)) {
			return 0, wyear
		}
		wYear = true
		wyear--
		days := daysInYear(wyear)
		firstDaynr -= int64(days)
		weekday = (weekday + 53*7 - days) % 7
	}
	var days int64
	if (firstWeekday && weekday != 0) || (!firstWeekday && weekday >= 4) {
		days = daynr - (firstDaynr + int64(7-weekday))
	} else {
		days = daynr - (firstDaynr - int64(weekday))
	}
	if wYear && days >= 52*7 {
		weekday = (weekday + daysInYear(wyear)) % 7
		if (!firstWeekday && weekday < 4) || (firstWeekday && weekday == 0) {
			return 1, wyear + 1
		}
	}
	return int(days/7 + 1), wyear
}

var daysInMonthTable = [12]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// dateFromDaynr is MySQL's get_date_from_daynr: the date of a day
// number, 0000-00-00 outside 366 .. 3652499.
func dateFromDaynr(daynr int64) (year, month, day int) {
	if daynr <= 365 || daynr >= 3652500 {
		return 0, 0, 0
	}
	y := int(daynr * 100 / 36525)
	temp := (((y-1)/100 + 1) * 3) / 4
	dayOfYear := int(daynr-int64(y)*365) - (y-1)/4 + temp
	diy := daysInYear(y)
	for dayOfYear > diy {
		dayOfYear -= diy
		y++
		diy = daysInYear(y)
	}
	leapDay := 0
	if diy == 366 && dayOfYear > 31+28 {
		dayOfYear--
		if dayOfYear == 31+28 {
			leapDay = 1
		}
	}
	m := 1
	for _, dm := range daysInMonthTable {
		if dayOfYear <= dm {
			break
		}
		dayOfYear -= dm
		m++
	}
	return y, m, dayOfYear + leapDay
}

var dayNames = [7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
