#include "CICU.h"

#include <pthread.h>
#include <unicode/ubrk.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

int32_t cicu_utf8_to_utf16(cicu_char *dest, int32_t capacity, const char *src, int32_t length, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = 0;
    u_strFromUTF8WithSub((UChar *)dest, capacity, &needed, src, length, 0xFFFD, NULL, &status);
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

static __thread int32_t word_previous_boundary;

int32_t cicu_words_begin(const cicu_char *text, int32_t length) {
    UBreakIterator *iterator = thread_word_iterator();
    if (iterator == NULL) return 0;
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
