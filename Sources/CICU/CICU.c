#include "CICU.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/uregex.h>
#include <unicode/utext.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

int32_t cicu_utf8_to_utf16(cicu_char *dest, int32_t capacity, const char *src, int32_t length, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = 0;
    u_strFromUTF8WithSub((UChar *)dest, capacity, &needed, src, length, 0xFFFD, NULL, &status);
    *error = status;
    return needed;
}

int32_t cicu_utf16_to_utf8(char *dest, int32_t capacity, const cicu_char *src, int32_t length, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = 0;
    u_strToUTF8WithSub(dest, capacity, &needed, (const UChar *)src, length, 0xFFFD, NULL, &status);
    *error = status;
    return needed;
}

int32_t cicu_fold_case(cicu_char *dest, int32_t capacity, const cicu_char *src, int32_t length, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = u_strFoldCase((UChar *)dest, capacity, (const UChar *)src, length, U_FOLD_CASE_DEFAULT, &status);
    *error = status;
    return needed;
}

static const UNormalizer2 *normalizer(cicu_normal_form form, UErrorCode *status) {
    return form == CICU_NFC ? unorm2_getNFCInstance(status) : unorm2_getNFKDInstance(status);
}

int32_t cicu_normalize(cicu_normal_form form, cicu_char *dest, int32_t capacity,
                       const cicu_char *src, int32_t length, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *n = normalizer(form, &status);
    int32_t needed = U_SUCCESS(status) ? unorm2_normalize(n, (const UChar *)src, length, (UChar *)dest, capacity, &status) : 0;
    *error = status;
    return needed;
}

int32_t cicu_normalized_prefix_length(cicu_normal_form form, const cicu_char *src, int32_t length, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *n = normalizer(form, &status);
    int32_t span = U_SUCCESS(status) ? unorm2_spanQuickCheckYes(n, (const UChar *)src, length, &status) : 0;
    *error = status;
    return span;
}

// One word break iterator per thread: opening one loads rules and dictionaries, far too
// dear to do per call; sharing one across threads is not allowed by ICU.
static pthread_key_t word_iterator_key;
static pthread_once_t word_iterator_once = PTHREAD_ONCE_INIT;

static void close_word_iterator(void *iterator) { ubrk_close((UBreakIterator *)iterator); }
static void make_word_iterator_key(void) { pthread_key_create(&word_iterator_key, close_word_iterator); }

static UBreakIterator *thread_word_iterator(void) {
    pthread_once(&word_iterator_once, make_word_iterator_key);
    UBreakIterator *iterator = pthread_getspecific(word_iterator_key);
    if (iterator == NULL) {
        UErrorCode status = U_ZERO_ERROR;
        iterator = ubrk_open(UBRK_WORD, "", NULL, 0, &status);
        if (U_FAILURE(status)) return NULL;
        pthread_setspecific(word_iterator_key, iterator);
    }
    return iterator;
}

// ICU finds the dictionary for a run of dictionary letters by the run's first letter, and keeps
// it. The Chinese and Japanese dictionary also takes the prolonged sound marks U+30FC and
// U+FF70, of the Common script, which find it only once something else has loaded it: a run
// starting with one was broken without it before, "ー間の" as "ー間" and "の" as the first text a
// process broke, "ー", "間" and "の" once any Chinese or Japanese had been, so an entry's tokens
// depended on what the process broke before it. An iterator about to break a text holding one
// of them first breaks two Han letters, which loads that dictionary (once a process; a run of one
// letter is not looked up). Only these two: each code point of U+2E80–U+33FF,
// U+A000–U+A4CF and U+FE30–U+FFEF before Japanese, and of the Thai, Lao, Myanmar and Khmer
// blocks before letters of theirs, broke the same as the first text of a process and after every
// dictionary was loaded, but for them. Loading the dictionaries for every iterator would cost every
// search whose results are not ASCII that load.
static const UChar han_letters[] = {0x4E2D, 0x6587};
static __thread int word_iterator_has_han_dictionary;

static int needs_han_dictionary(const UChar *text, int32_t length) {
    for (int32_t i = 0; i < length; i++) {
        UChar unit = text[i];
        if (unit == 0x30FC || unit == 0xFF70) return 1;
    }
    return 0;
}

static int load_han_dictionary(UBreakIterator *iterator) {
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText(iterator, han_letters, (int32_t)(sizeof han_letters / sizeof han_letters[0]), &status);
    if (U_FAILURE(status)) return 0;
    while (ubrk_next(iterator) != UBRK_DONE) {}
    word_iterator_has_han_dictionary = 1;
    return 1;
}

static __thread int32_t word_previous_boundary;

int32_t cicu_words_begin(const cicu_char *text, int32_t length) {
    UBreakIterator *iterator = thread_word_iterator();
    if (iterator == NULL) return 0;
    if (!word_iterator_has_han_dictionary && needs_han_dictionary((const UChar *)text, length)
        && !load_han_dictionary(iterator)) {
        return 0;
    }
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText(iterator, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return 0;
    word_previous_boundary = ubrk_first(iterator);
    return 1;
}

int32_t cicu_words_next(int32_t *start, int32_t *end) {
    UBreakIterator *iterator = pthread_getspecific(word_iterator_key);
    if (iterator == NULL) return 0;
    for (int32_t boundary = ubrk_next(iterator); boundary != UBRK_DONE; boundary = ubrk_next(iterator)) {
        int32_t status = ubrk_getRuleStatus(iterator);
        int32_t segment_start = word_previous_boundary;
        word_previous_boundary = boundary;
        if (status >= UBRK_WORD_NUMBER && status < UBRK_WORD_IDEO_LIMIT) {
            *start = segment_start;
            *end = boundary;
            return 1;
        }
    }
    return 0;
}

// Regular expressions live in ICU's other library, libicui18n, which is loaded on the first
// pattern compiled rather than at start-up: it is linked to bind all of its symbols when it
// loads, a cost every journal process would pay though only the matches strategies
// and --regex use it. The four functions are looked up by their versioned names, the ones its
// headers give (uregex_open is uregex_open_72), in the library of the same ICU version.
#define CICU_NAME(function) CICU_QUOTE(function)
#define CICU_QUOTE(name) #name

static struct {
    URegularExpression *(*open)(const UChar *, int32_t, uint32_t, UParseError *, UErrorCode *);
    void (*set_utext)(URegularExpression *, UText *, UErrorCode *);
    UBool (*find)(URegularExpression *, int32_t, UErrorCode *);
    void (*close)(URegularExpression *);
} regex_library;
static pthread_once_t regex_library_once = PTHREAD_ONCE_INIT;

static void load_regex_library(void) {
    void *library = dlopen("libicui18n.so." U_ICU_VERSION_SHORT, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    regex_library.set_utext = dlsym(library, CICU_NAME(uregex_setUText));
    regex_library.find = dlsym(library, CICU_NAME(uregex_find));
    regex_library.close = dlsym(library, CICU_NAME(uregex_close));
    if (regex_library.set_utext && regex_library.find && regex_library.close) {
        regex_library.open = dlsym(library, CICU_NAME(uregex_open)); // set last: it says all four are there
    }
}

const char *cicu_regex_library_name(void) { return "libicui18n.so." U_ICU_VERSION_SHORT; }

struct cicu_regex {
    URegularExpression *regex;
    UText text; // reused for every subject, so matching allocates nothing
};

cicu_regex *cicu_regex_open(const cicu_char *pattern, int32_t length, int32_t flags, int32_t *error, int32_t *error_offset) {
    *error_offset = -1;
    pthread_once(&regex_library_once, load_regex_library);
    if (regex_library.open == NULL) {
        *error = U_MISSING_RESOURCE_ERROR;
        return NULL;
    }
    UErrorCode status = U_ZERO_ERROR;
    UParseError parse_error;
    URegularExpression *regex = regex_library.open((const UChar *)pattern, length, (uint32_t)flags, &parse_error, &status);
    *error = status;
    if (U_FAILURE(status)) {
        if (parse_error.offset >= 0 && parse_error.line <= 1) *error_offset = parse_error.offset;
        return NULL;
    }
    cicu_regex *result = calloc(1, sizeof(cicu_regex));
    if (result == NULL) {
        regex_library.close(regex);
        *error = U_MEMORY_ALLOCATION_ERROR;
        return NULL;
    }
    UText initial = UTEXT_INITIALIZER;
    result->regex = regex;
    result->text = initial;
    return result;
}

int32_t cicu_regex_find_utf8(cicu_regex *regex, const char *utf8, int64_t length) {
    UErrorCode status = U_ZERO_ERROR;
    utext_openUTF8(&regex->text, utf8, length, &status);
    if (U_FAILURE(status)) return -1;
    regex_library.set_utext(regex->regex, &regex->text, &status);
    if (U_FAILURE(status)) return -1;
    UBool found = regex_library.find(regex->regex, 0, &status);
    if (U_FAILURE(status)) return -1;
    return found ? 1 : 0;
}

void cicu_regex_close(cicu_regex *regex) {
    if (regex == NULL) return;
    regex_library.close(regex->regex);
    utext_close(&regex->text);
    free(regex);
}

const char *cicu_error_name(int32_t error) { return u_errorName((UErrorCode)error); }
